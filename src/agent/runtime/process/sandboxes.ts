// A process pod's sandbox: a directory and a record. Its processes share the host's
// network, so the pod IP is the host's address and hostPorts are the ports its
// processes bind; they are recorded so that two pods cannot claim the same one.

import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { objectName, sandboxDir, sandboxesRoot, type ProcessContext } from './context.js';
import { claimName, releaseName } from './names.js';
import { readJson, writeJson } from './records.js';
import { matchLabels } from './state.js';
import { SandboxError } from '../errors.js';
import { mergeLabels, podLabels } from '../labels.js';
import type { ListFilter, PortMapping, SandboxInfo, SandboxSpec } from '../runtime.js';

const RECORD = 'sandbox.json';

interface SandboxRecord {
  id: string;
  name: string;
  spec: SandboxSpec;
  labels: Record<string, string>;
  createdAt: string;
}

/** The default working directory of the sandbox's containers (shared, like /tmp). */
export function workDir(ctx: ProcessContext, id: string): string {
  return join(sandboxDir(ctx, id), 'work');
}

function toInfo(ctx: ProcessContext, r: SandboxRecord): SandboxInfo {
  return {
    id: r.id,
    pod: r.spec.pod,
    attempt: r.spec.attempt,
    // Nothing runs for a process sandbox: it is ready for as long as it exists.
    state: 'running',
    ip: ctx.hostIP,
    createdAt: new Date(r.createdAt),
    labels: r.labels,
  };
}

async function readRecord(ctx: ProcessContext, id: string): Promise<SandboxRecord | undefined> {
  try {
    return await readJson<SandboxRecord>(join(sandboxDir(ctx, id), RECORD));
  } catch (err) {
    if (err instanceof SandboxError) return undefined;
    throw err;
  }
}

async function allRecords(ctx: ProcessContext): Promise<SandboxRecord[]> {
  const ids = await readdir(sandboxesRoot(ctx)).catch(() => [] as string[]);
  const records = await Promise.all(ids.map((id) => readRecord(ctx, id).catch(() => undefined)));
  return records.filter((r): r is SandboxRecord => r !== undefined);
}

function portKey(p: PortMapping, hostIP: string): string {
  return `${p.hostIP ?? hostIP}:${p.hostPort ?? 0}/${p.protocol ?? 'TCP'}`;
}

async function checkPorts(ctx: ProcessContext, spec: SandboxSpec): Promise<void> {
  const wanted = (spec.ports ?? []).filter((p) => p.hostPort);
  if (wanted.length === 0) return;
  const taken = new Set((await allRecords(ctx)).flatMap((r) => (r.spec.ports ?? []).filter((p) => p.hostPort).map((p) => portKey(p, ctx.hostIP))));
  for (const p of wanted) {
    const key = portKey(p, ctx.hostIP);
    if (taken.has(key)) throw new SandboxError(`create sandbox for pod ${spec.pod.namespace}/${spec.pod.name}: host port ${key} is already allocated`);
  }
}

export async function createSandbox(ctx: ProcessContext, spec: SandboxSpec): Promise<SandboxInfo> {
  const id = randomBytes(32).toString('hex');
  const name = objectName([ctx.namePrefix, 'POD', spec.pod.name, spec.pod.namespace, spec.pod.uid, spec.attempt]);
  await checkPorts(ctx, spec);
  await claimName(ctx, name, id, async (owner) => (await readRecord(ctx, owner)) !== undefined);
  const record: SandboxRecord = {
    id,
    name,
    spec,
    labels: mergeLabels(spec.labels, podLabels(spec.pod, 'sandbox', spec.attempt)),
    createdAt: new Date().toISOString(),
  };
  try {
    await mkdir(workDir(ctx, id), { recursive: true, mode: 0o755 });
    await writeJson(join(sandboxDir(ctx, id), RECORD), record);
  } catch (err) {
    await rm(sandboxDir(ctx, id), { recursive: true, force: true });
    await releaseName(ctx, name, id);
    throw new SandboxError(`create sandbox for pod ${spec.pod.namespace}/${spec.pod.name}: ${(err as Error).message}`, { cause: err });
  }
  ctx.hub.emit('create', id, record.labels);
  ctx.hub.emit('start', id, record.labels);
  return toInfo(ctx, record);
}

export async function inspectSandbox(ctx: ProcessContext, id: string): Promise<SandboxInfo> {
  const record = await readRecord(ctx, id);
  if (!record) throw new SandboxError(`no such sandbox: ${id}`);
  return toInfo(ctx, record);
}

export async function sandboxExists(ctx: ProcessContext, id: string): Promise<boolean> {
  return (await readRecord(ctx, id)) !== undefined;
}

export async function listSandboxes(ctx: ProcessContext, filter?: ListFilter): Promise<SandboxInfo[]> {
  return (await allRecords(ctx)).filter((r) => matchLabels(r.labels, filter?.labels)).map((r) => toInfo(ctx, r));
}

/** `removeMembers` removes the sandbox's containers first (they may use its work dir). */
export async function removeSandbox(ctx: ProcessContext, id: string, removeMembers: (id: string) => Promise<void>): Promise<void> {
  const record = await readRecord(ctx, id);
  await removeMembers(id);
  await rm(sandboxDir(ctx, id), { recursive: true, force: true });
  if (!record) return;
  await releaseName(ctx, record.name, id);
  ctx.hub.emit('destroy', id, record.labels);
}
