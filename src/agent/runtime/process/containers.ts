// Process containers: create, remove, list. Starting and signalling are in lifecycle.ts.

import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { containerDir, containersRoot, isId, objectName, type ProcessContext } from './context.js';
import { imageInfo } from './images.js';
import { claimName, releaseName } from './names.js';
import { CONFIG, readContainerFiles, writeJson, type ContainerRecord } from './records.js';
import { sandboxExists } from './sandboxes.js';
import { statusFromFiles, matchLabels, toSummary } from './state.js';
import { CreateFailedError, RuntimeError, SandboxError } from '../errors.js';
import { CONTAINER_NAME, SANDBOX_ID, mergeLabels, podLabels } from '../labels.js';
import type { ContainerSpec, ContainerStatus, ContainerSummary, ListFilter } from '../runtime.js';

export function argvOf(spec: ContainerSpec): string[] {
  return [...(spec.command ?? []), ...(spec.args ?? [])];
}

/** What the spec asks for that a host process cannot be given; reported, not fatal. */
function unsupported(spec: ContainerSpec): string[] {
  const out: string[] = [];
  const moved = (spec.mounts ?? []).filter((m) => m.type !== 'bind' || m.source !== m.target);
  if (moved.length > 0) {
    out.push(`mounts are not applied by the process runtime (the process sees the host's filesystem): ${moved.map((m) => m.target).join(', ')}`);
  }
  const sc = spec.securityContext ?? {};
  if (sc.readOnlyRootFilesystem) out.push('readOnlyRootFilesystem is not enforced by the process runtime');
  if ((sc.capAdd?.length ?? 0) > 0 || (sc.capDrop?.length ?? 0) > 0) out.push('capabilities are not changed by the process runtime');
  return out;
}

function validate(spec: ContainerSpec): void {
  const fail = (why: string): never => {
    throw new CreateFailedError(`create container ${spec.name}: ${why}`);
  };
  if (argvOf(spec).length === 0) fail('a process container needs a command (there is no image to take one from)');
  if (spec.tty) fail('tty is not supported by the process runtime');
  for (const [k, v] of Object.entries(spec.env ?? {})) {
    if (k === '' || k.includes('=') || k.includes('\0') || v.includes('\0')) fail(`invalid environment variable ${JSON.stringify(k)}`);
  }
  if (argvOf(spec).some((a) => a.includes('\0'))) fail('the command contains a NUL byte');
}

export async function createContainer(ctx: ProcessContext, spec: ContainerSpec): Promise<string> {
  validate(spec);
  if (!isId(spec.sandboxId) || !(await sandboxExists(ctx, spec.sandboxId))) {
    throw new SandboxError(`create container ${spec.name}: no such sandbox: ${spec.sandboxId}`);
  }
  const id = randomBytes(32).toString('hex');
  const { pod } = spec;
  const runtimeName = objectName([ctx.namePrefix, spec.name, pod.name, pod.namespace, pod.uid, spec.attempt]);
  await claimName(ctx, runtimeName, id, async (owner) => isId(owner) && (await readContainerFiles(containerDir(ctx, owner))) !== undefined);
  const own = { ...podLabels(pod, 'container', spec.attempt), [CONTAINER_NAME]: spec.name, [SANDBOX_ID]: spec.sandboxId };
  const record: ContainerRecord = {
    id,
    runtimeName,
    createdAt: new Date().toISOString(),
    spec,
    labels: mergeLabels(spec.labels, own),
    imageId: imageInfo(spec.image).id,
    warnings: unsupported(spec),
  };
  try {
    await mkdir(containerDir(ctx, id), { recursive: true });
    await writeJson(join(containerDir(ctx, id), CONFIG), record);
  } catch (err) {
    await rm(containerDir(ctx, id), { recursive: true, force: true });
    await releaseName(ctx, runtimeName, id);
    throw new CreateFailedError(`create container ${spec.name}: ${(err as Error).message}`, { cause: err });
  }
  ctx.hub.emit('create', id, record.labels);
  return id;
}

async function allStatuses(ctx: ProcessContext): Promise<ContainerStatus[]> {
  const ids = (await readdir(containersRoot(ctx)).catch(() => [] as string[])).filter(isId);
  const statuses = await Promise.all(
    ids.map(async (id) => {
      const files = await readContainerFiles(containerDir(ctx, id)).catch(() => undefined);
      return files ? statusFromFiles(ctx, files) : undefined;
    }),
  );
  return statuses.filter((s): s is ContainerStatus => s !== undefined);
}

export async function listContainers(ctx: ProcessContext, filter?: ListFilter): Promise<ContainerSummary[]> {
  const all = filter?.all ?? true;
  return (await allStatuses(ctx))
    .filter((s) => (all || s.state === 'running') && matchLabels(s.labels, filter?.labels))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    .map(toSummary);
}

/** Deletes the container's files; the caller has made sure nothing runs. */
export async function deleteContainer(ctx: ProcessContext, status: ContainerStatus): Promise<void> {
  try {
    await rm(containerDir(ctx, status.id), { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    await releaseName(ctx, status.runtimeName, status.id);
  } catch (err) {
    throw new RuntimeError(`remove container ${status.id}: ${(err as Error).message}`, { cause: err });
  }
  ctx.hub.emit('destroy', status.id, status.labels);
}
