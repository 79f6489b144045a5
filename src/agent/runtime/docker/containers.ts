// App container lifecycle on Docker: create, start, stop, kill, remove, inspect, list.

import { containerCreateOptions, containerName, resourceFields } from './container-config.js';
import type { DockerContext } from './client.js';
import { engineMessage, mapContainerError, statusOf } from './engine-errors.js';
import { labelFilters, toStatus, toSummary } from './state.js';
import { CreateFailedError, ImageNotFoundError, NameConflictError, NotRunningError, RuntimeError, SandboxError, StartFailedError } from '../errors.js';
import { HOSTNAME_SHIM, KIND, MANAGED } from '../labels.js';
import { releaseShim, withHostnameShim } from './hostname-shim.js';
import type { ContainerResources, ContainerSpec, ContainerStatus, ContainerSummary, ListFilter } from '../runtime.js';
import { makeRoom } from '../../../util/make-room.js';

function withStatus(statusCode: number | undefined): { statusCode?: number } {
  return statusCode === undefined ? {} : { statusCode };
}

export async function createContainer(ctx: DockerContext, spec: ContainerSpec): Promise<string> {
  const name = containerName(ctx, spec);
  // In a claimed pool sandbox the container would start under the pool's hostname (hostname-shim.ts).
  const hostname = ctx.claims?.get(spec.sandboxId)?.hostname;
  const options = containerCreateOptions(ctx, spec);
  try {
    const createOptions = hostname ? await withHostnameShim(ctx, options, hostname) : options;
    const container = await ctx.starts.run(() => ctx.docker.createContainer(createOptions));
    // Forgotten at start; a bound keeps never-started ones from adding up.
    makeRoom(ctx.shims, 4096);
    ctx.shims.set(container.id, hostname ?? null);
    return container.id;
  } catch (err) {
    if (err instanceof RuntimeError) throw err;
    const message = engineMessage(err);
    const opts = { engineMessage: message, cause: err, ...withStatus(statusOf(err)) };
    // A 404 on create names either the image or the sandbox the container joins.
    if (statusOf(err) === 404 && /no such image/i.test(message)) {
      throw new ImageNotFoundError(spec.image, `create container ${spec.name}: ${message}`, opts);
    }
    if (statusOf(err) === 404) {
      throw new SandboxError(`create container ${spec.name}: sandbox ${spec.sandboxId}: ${message}`, opts);
    }
    if (statusOf(err) === 409) throw new NameConflictError(name, opts);
    throw mapContainerError(err, name, (msg) => new CreateFailedError(`create container ${spec.name}: ${msg}`, opts));
  }
}

export async function startContainer(ctx: DockerContext, id: string): Promise<void> {
  try {
    await ctx.starts.run(() => ctx.docker.getContainer(id).start());
  } catch (err) {
    if (statusOf(err) === 304) return; // already running: starting is idempotent
    throw mapContainerError(
      err,
      id,
      (message, statusCode) => new StartFailedError(`start container ${id}: ${message}`, { engineMessage: message, cause: err, ...withStatus(statusCode) }),
    );
  }
  const hostname = await shimHostname(ctx, id);
  if (hostname) await releaseShim(ctx, id, hostname);
}

/** The hostname a container's shim waits for: known when this process made it, read from its label otherwise. */
async function shimHostname(ctx: DockerContext, id: string): Promise<string | undefined> {
  const known = ctx.shims.get(id);
  ctx.shims.delete(id);
  if (known !== undefined) return known ?? undefined;
  if (!ctx.claims) return undefined;
  const info = await ctx.docker
    .getContainer(id)
    .inspect()
    .catch(() => undefined);
  return info?.Config.Labels?.[HOSTNAME_SHIM] || undefined;
}

/** Docker sends the stop signal, then SIGKILL once `graceSeconds` have passed. */
export async function stopContainer(ctx: DockerContext, id: string, graceSeconds: number): Promise<void> {
  try {
    await ctx.docker.getContainer(id).stop({ t: Math.max(0, Math.ceil(graceSeconds)) });
  } catch (err) {
    if (statusOf(err) === 304) return; // already stopped
    throw mapContainerError(
      err,
      id,
      (message, statusCode) => new RuntimeError(`stop container ${id}: ${message}`, { engineMessage: message, cause: err, ...withStatus(statusCode) }),
    );
  }
}

export async function killContainer(ctx: DockerContext, id: string, signal: string): Promise<void> {
  try {
    await ctx.docker.getContainer(id).kill({ signal });
  } catch (err) {
    throw mapContainerError(err, id, (message, statusCode) => {
      const opts = { engineMessage: message, cause: err, ...withStatus(statusCode) };
      return statusCode === 409 || /is not running/i.test(message)
        ? new NotRunningError(`kill container ${id}: ${message}`, opts)
        : new RuntimeError(`kill container ${id} with ${signal}: ${message}`, opts);
    });
  }
}

export async function removeContainer(ctx: DockerContext, id: string, force: boolean): Promise<void> {
  try {
    await ctx.docker.getContainer(id).remove({ force, v: true });
  } catch (err) {
    const message = engineMessage(err);
    // Gone already, or another caller is removing it: either way it will not exist.
    if (statusOf(err) === 404 || /already in progress/i.test(message)) return;
    throw mapContainerError(
      err,
      id,
      (msg, statusCode) => new RuntimeError(`remove container ${id}: ${msg}`, { engineMessage: msg, cause: err, ...withStatus(statusCode) }),
    );
  }
}

export async function inspectContainer(ctx: DockerContext, id: string): Promise<ContainerStatus> {
  try {
    return toStatus(await ctx.docker.getContainer(id).inspect());
  } catch (err) {
    throw mapContainerError(
      err,
      id,
      (message, statusCode) => new RuntimeError(`inspect container ${id}: ${message}`, { engineMessage: message, cause: err, ...withStatus(statusCode) }),
    );
  }
}

export async function listContainers(ctx: DockerContext, filter: ListFilter | undefined): Promise<ContainerSummary[]> {
  try {
    const list = await ctx.docker.listContainers({
      all: filter?.all ?? true,
      filters: labelFilters(filter, { [MANAGED]: 'true', [KIND]: 'container' }),
    });
    return list.map(toSummary);
  } catch (err) {
    throw mapContainerError(err, '', (message) => new RuntimeError(`list containers: ${message}`, { engineMessage: message, cause: err }));
  }
}

export async function waitContainer(ctx: DockerContext, id: string, signal?: AbortSignal): Promise<number> {
  try {
    const result = (await ctx.docker.getContainer(id).wait({
      condition: 'not-running',
      ...(signal ? { abortSignal: signal } : {}),
    })) as { StatusCode: number };
    return result.StatusCode;
  } catch (err) {
    throw mapContainerError(err, id, (message) => new RuntimeError(`wait for container ${id}: ${message}`, { engineMessage: message, cause: err }));
  }
}

export async function updateResources(ctx: DockerContext, id: string, resources: ContainerResources): Promise<void> {
  try {
    await ctx.docker.getContainer(id).update(resourceFields(resources));
  } catch (err) {
    throw mapContainerError(
      err,
      id,
      (message, statusCode) => new RuntimeError(`update resources of ${id}: ${message}`, { engineMessage: message, cause: err, ...withStatus(statusCode) }),
    );
  }
}
