// The pod sandbox: a pause container that owns the pod's network (and IPC)
// namespace and publishes its hostPorts; app containers join it, so they share
// localhost and the pod IP, as in the original executor's pod model.

import type Docker from 'dockerode';
import { parseDockerTime, type DockerContext } from './client.js';
import { sandboxCreateOptions, sandboxName, type SandboxNetwork } from './container-config.js';
import { removeContainer } from './containers.js';
import { joinedIncompletely, joinPodNetwork, POD_IP, removeHostEnd } from './direct-attach.js';
import { engineMessage, mapContainerError, statusOf } from './engine-errors.js';
import type { PauseImage } from './pause-image.js';
import { labelFilters, mapState } from './state.js';
import { ContainerNotFoundError, NameConflictError, RuntimeError, SandboxError } from '../errors.js';
import { KIND, MANAGED, POD_UID, SANDBOX_ID, attemptFromLabels, podFromLabels } from '../labels.js';
import type { ListFilter, SandboxInfo, SandboxSpec, StartingSandbox } from '../runtime.js';

export async function createSandbox(ctx: DockerContext, pause: PauseImage, spec: SandboxSpec): Promise<SandboxInfo> {
  return (await beginSandbox(ctx, pause, spec)).started;
}

/**
 * Docker accepts NetworkMode container:<id> for a container that does not run yet (the join
 * happens at start), so the sandbox is handed out as soon as it exists and started meanwhile.
 */
export async function beginSandbox(ctx: DockerContext, pause: PauseImage, spec: SandboxSpec): Promise<StartingSandbox> {
  await pause.ensure();
  const network = await sandboxNetwork(ctx, spec);
  const options = sandboxCreateOptions(ctx, spec, network);
  let id: string;
  try {
    id = (await ctx.starts.run(() => ctx.docker.createContainer(options))).id;
  } catch (err) {
    const opts = { engineMessage: engineMessage(err), cause: err };
    if (statusOf(err) === 409) throw new NameConflictError(sandboxName(ctx, spec), opts);
    throw mapContainerError(err, '', (message) => new SandboxError(`create sandbox for pod ${spec.pod.namespace}/${spec.pod.name}: ${message}`, opts));
  } finally {
    // Made or not, the address is now the engine's to tell about (a created container holds it).
    if (network?.ip) ctx.podNetwork?.release(network.ip);
  }
  const joined = startSandbox(ctx, spec, id, network);
  const running = joined.then(() => undefined);
  // A sandbox joined directly was inspected for its join: its record is read once, not twice.
  const started = joined.then((info) => (info ? sandboxOf(ctx, id, info) : inspectSandbox(ctx, id)));
  // Handled here as well: a caller that gives up before awaiting them must not crash the process.
  running.catch(() => undefined);
  started.catch(() => undefined);
  const labels = options.Labels ?? {};
  const created: SandboxInfo = { id, pod: spec.pod, attempt: spec.attempt, state: 'created', ip: '', createdAt: new Date(), labels };
  return { created, running, started };
}

/**
 * The pod network and the pod's address in the node's range; none on the node's network or without
 * a pod network. The agent joins it itself (direct-attach.ts) unless it publishes hostPorts, which
 * Docker's port mapping serves through its own endpoint.
 */
async function sandboxNetwork(ctx: DockerContext, spec: SandboxSpec): Promise<SandboxNetwork | undefined> {
  if (spec.hostNetwork || !ctx.podNetwork) return undefined;
  const network = ctx.podNetwork;
  try {
    const { name } = await network.ensure();
    const ip = spec.addressRange ? await network.pickAddress(spec.addressRange) : undefined;
    return {
      name,
      ip,
      direct: await ctx.directAttach.joins(
        ip,
        (spec.ports ?? []).some((p) => p.hostPort),
      ),
    };
  } catch (err) {
    throw mapContainerError(
      err,
      '',
      (message) => new SandboxError(`pod network for pod ${spec.pod.namespace}/${spec.pod.name}: ${message}`, { engineMessage: message, cause: err }),
    );
  }
}

/** Starts the sandbox; one joined to the pod network directly comes back with the record inspected for the join. */
async function startSandbox(
  ctx: DockerContext,
  spec: SandboxSpec,
  id: string,
  network: SandboxNetwork | undefined,
): Promise<Docker.ContainerInspectInfo | undefined> {
  try {
    await ctx.starts.run(() => ctx.docker.getContainer(id).start());
    return network?.direct ? await joinPodNetwork(ctx, id, network, (spec.hostname ?? spec.pod.name).slice(0, 63)) : undefined;
  } catch (err) {
    // A half-made sandbox (typically: a hostPort already taken) must not linger.
    await removeContainer(ctx, id, true).catch(() => undefined);
    const message = engineMessage(err);
    throw mapContainerError(
      err,
      id,
      () => new SandboxError(`start sandbox for pod ${spec.pod.namespace}/${spec.pod.name}: ${message}`, { engineMessage: message, cause: err }),
    );
  }
}

/** The pod address of an inspected sandbox (podIP). */
export function inspectedIP(ctx: DockerContext, info: Docker.ContainerInspectInfo): string {
  return podIP(ctx, info.HostConfig.NetworkMode, info.NetworkSettings.Networks, info.Config.Labels ?? {});
}

/** The pod address of a listed sandbox (podIP). */
export function listedIP(ctx: DockerContext, c: Docker.ContainerInfo): string {
  return podIP(ctx, c.HostConfig.NetworkMode, c.NetworkSettings?.Networks, c.Labels ?? {});
}

/** The pod's address: the node's with host networking, the label's for a sandbox the agent joined itself, else Docker's endpoint's. */
function podIP(
  ctx: DockerContext,
  networkMode: string | undefined,
  networks: Record<string, { IPAddress?: string }> | undefined,
  labels: Record<string, string>,
): string {
  if (networkMode === 'host') return ctx.hostIP;
  if (networkMode === 'none') return labels[POD_IP] ?? '';
  for (const net of Object.values(networks ?? {})) {
    if (net.IPAddress) return net.IPAddress;
  }
  return '';
}

/** A sandbox from the engine's record; a pool sandbox's pod is its claim's (sandbox-claims.ts). */
function toSandbox(
  ctx: DockerContext,
  raw: {
    id: string;
    labels: Record<string, string>;
    status: string;
    running?: boolean;
    createdAt: Date;
    ip: string;
  },
): SandboxInfo | undefined {
  const labels = ctx.claims?.labelsOf(raw.id, raw.labels) ?? raw.labels;
  const pod = podFromLabels(labels);
  if (!pod) return undefined;
  const state = mapState(raw.status, raw.running);
  return {
    id: raw.id,
    pod,
    attempt: attemptFromLabels(labels),
    // Running without its network (direct-attach.ts): no sandbox its pod can use; it is replaced.
    state: state === 'running' && joinedIncompletely(raw.id, raw.labels) ? 'unknown' : state,
    ip: raw.ip,
    createdAt: raw.createdAt,
    labels,
  };
}

export function sandboxFromInspect(ctx: DockerContext, info: Docker.ContainerInspectInfo): SandboxInfo | undefined {
  return toSandbox(ctx, {
    id: info.Id,
    labels: info.Config.Labels ?? {},
    status: info.State.Status,
    running: info.State.Running,
    createdAt: parseDockerTime(info.Created) ?? new Date(0),
    ip: inspectedIP(ctx, info),
  });
}

export async function inspectSandbox(ctx: DockerContext, id: string): Promise<SandboxInfo> {
  let info: Docker.ContainerInspectInfo;
  try {
    info = await ctx.docker.getContainer(id).inspect();
  } catch (err) {
    throw mapContainerError(err, id, (message) => new RuntimeError(`inspect sandbox ${id}: ${message}`, { engineMessage: message, cause: err }));
  }
  return sandboxOf(ctx, id, info);
}

function sandboxOf(ctx: DockerContext, id: string, info: Docker.ContainerInspectInfo): SandboxInfo {
  const sandbox = sandboxFromInspect(ctx, info);
  if (!sandbox) throw new SandboxError(`container ${id} is not a Drover sandbox (it has no pod labels)`);
  return sandbox;
}

export async function listSandboxes(ctx: DockerContext, filter: ListFilter | undefined): Promise<SandboxInfo[]> {
  let list: Docker.ContainerInfo[];
  try {
    list = await ctx.docker.listContainers({
      all: filter?.all ?? true,
      filters: labelFilters(filter, { [MANAGED]: 'true', [KIND]: 'sandbox' }),
    });
  } catch (err) {
    throw mapContainerError(err, '', (message) => new RuntimeError(`list sandboxes: ${message}`, { engineMessage: message, cause: err }));
  }
  return withClaimed(
    ctx,
    filter,
    list.flatMap((c) => sandboxFromList(ctx, c)),
  );
}

/**
 * The sandboxes a pod filter finds, and its claimed pool sandbox besides: the engine cannot find
 * that one by the pod's labels, which it does not have.
 */
export async function withClaimed(ctx: DockerContext, filter: ListFilter | undefined, found: SandboxInfo[]): Promise<SandboxInfo[]> {
  const uid = filter?.labels?.[POD_UID];
  if (!ctx.claims || typeof uid !== 'string') return found;
  const missing = ctx.claims.ofPod(uid).filter((id) => !found.some((s) => s.id === id));
  for (const id of missing) {
    const sandbox = await inspectSandbox(ctx, id).catch(async (err: unknown) => {
      if (!(err instanceof ContainerNotFoundError)) throw err;
      // Removed behind the agent's back: the pod has no sandbox now, and the claim is void.
      await ctx.claims?.drop(id);
      return undefined;
    });
    if (!sandbox || (filter?.all === false && sandbox.state !== 'running')) continue;
    if (Object.entries(filter?.labels ?? {}).every(([k, v]) => (v === true ? k in sandbox.labels : sandbox.labels[k] === v))) found.push(sandbox);
  }
  return found;
}

/** A sandbox from a list entry; a labelled container without pod labels is not ours to report (or to fail on). */
export function sandboxFromList(ctx: DockerContext, c: Docker.ContainerInfo): SandboxInfo[] {
  const sandbox = toSandbox(ctx, {
    id: c.Id,
    labels: c.Labels ?? {},
    status: c.State,
    createdAt: new Date(c.Created * 1000),
    ip: listedIP(ctx, c),
  });
  return sandbox ? [sandbox] : [];
}

/** App containers first: they hold the sandbox's namespaces. */
export async function removeSandbox(ctx: DockerContext, id: string, keep?: ReadonlySet<string>): Promise<void> {
  let members: Docker.ContainerInfo[];
  let fullId = id;
  let joinedDirectly = false;
  try {
    // Members are labelled with the full id; the caller may hold a short one.
    const info = await ctx.docker
      .getContainer(id)
      .inspect()
      .catch(() => undefined);
    fullId = info?.Id ?? id;
    joinedDirectly = info?.Config.Labels?.[POD_IP] !== undefined;
    members = await ctx.docker.listContainers({ all: true, filters: { label: [`${SANDBOX_ID}=${fullId}`] } });
  } catch (err) {
    throw mapContainerError(err, id, (message) => new RuntimeError(`remove sandbox ${id}: ${message}`, { engineMessage: message, cause: err }));
  }
  // Docker lets a stopped member outlive the container whose network it joined.
  await Promise.all(members.filter((c) => !keep?.has(c.Id)).map((c) => removeContainer(ctx, c.Id, true)));
  await removeContainer(ctx, id, true);
  if (joinedDirectly) await removeHostEnd(fullId);
  await ctx.claims?.drop(fullId);
}
