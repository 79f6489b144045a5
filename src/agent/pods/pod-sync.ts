// One sync of one pod: read what the runtime holds, bring it towards the spec (sandbox,
// volumes, devices, containers), and write the status that results. A deleted pod is stopped
// and then removed from the API; a finished one keeps its containers (for logs) but nothing
// of it runs. Runtime outages are thrown, so no status is written from a blind read.
import { isConflict, isNotFound, resources } from '../../client/index.js';
import { k8sTime } from '../util/time.js';
import { removeSupersededContainers } from './dead-containers.js';
import { observePod, type PodRuntime } from './observe.js';
import type { PodDeps } from './pod-deps.js';
import type { PodRecord } from './pod-record.js';
import { ensureSandbox } from './pod-sandbox.js';
import { ensureDevices, ensureVolumes, gpuAdmissionError, runContainers } from './pod-steps.js';
import { isTerminalPhase } from './pod-types.js';
import { computeStatus, readTerminationMessages, syncProbes } from './pod-view.js';
import { writePodStatus } from './status-writer.js';
import { SyncContext } from './sync-context.js';
import { cleanUpPod, gracePeriodOf, killPodContainers } from './termination.js';
import type { Pod, PodStatus } from '../../api/core/index.js';

/** A running pod is looked at again this often even when nothing is heard of it. */
export const RESYNC_MS = 10_000;

export interface SyncResult {
  requeueAfterMs?: number;
}

export async function syncPod(deps: PodDeps, record: PodRecord): Promise<SyncResult> {
  const ctx = new SyncContext(deps, record, deps.runtimes.forPod(record.pod));
  if (record.pod.metadata.deletionTimestamp) {
    await terminatePod(ctx);
    return {};
  }
  let state = await observePod(ctx.runtime, deps.owner, ctx.uid, deps.cache);
  if (record.terminal || isTerminalPhase(record.pod.status?.phase)) return finishPod(ctx, state);
  if (deadlineExceeded(ctx)) {
    const message = 'Pod was active on the node longer than the specified deadline';
    record.terminal = { phase: 'Failed', reason: 'DeadlineExceeded', message };
    deps.events.pod(record.pod, 'Warning', 'DeadlineExceeded', message);
    return finishPod(ctx, state);
  }
  const rejected = await gpuAdmissionError(ctx);
  if (rejected) {
    record.terminal = { phase: 'Failed', reason: 'UnexpectedAdmissionError', message: rejected };
    deps.events.pod(record.pod, 'Warning', 'UnexpectedAdmissionError', rejected);
    return finishPod(ctx, state);
  }
  ctx.sandbox = await ensureSandbox(ctx, state);
  if (ctx.sandbox) {
    let changed: boolean | undefined;
    try {
      const volumes = await ensureVolumes(ctx);
      const devices = volumes && ensureDevices(ctx);
      changed = volumes && devices && (await runContainers(ctx, state, volumes, devices));
    } finally {
      // A sandbox made in this sync runs now, with its IP, or is gone when it could not
      // start; either way no sync leaves one half-started behind for the next.
      if (ctx.sandboxStart) ctx.sandbox = await ctx.sandboxStart.started;
    }
    if (changed) state = await observePod(ctx.runtime, deps.owner, ctx.uid, deps.cache);
    await removeSupersededContainers(ctx, state);
  }
  syncProbes(ctx, state);
  const status = await statusOf(ctx, state);
  if (!(await writePodStatus(deps.api, record, status))) return {};
  if (isTerminalPhase(status.phase)) {
    record.terminal = { phase: status.phase };
    ctx.retry(0);
  }
  return { requeueAfterMs: ctx.requeueAfter(RESYNC_MS) };
}

async function statusOf(ctx: SyncContext, state: PodRuntime): Promise<PodStatus> {
  await readTerminationMessages(ctx, state);
  const status = computeStatus(ctx, state);
  const terminal = ctx.record.terminal;
  if (terminal) {
    status.phase = terminal.phase;
    if (terminal.reason) status.reason = terminal.reason;
    if (terminal.message) status.message = terminal.message;
  }
  return status;
}

function deadlineExceeded(ctx: SyncContext): boolean {
  const deadline = ctx.pod.spec.activeDeadlineSeconds;
  const start = ctx.record.startTime ?? ctx.pod.status?.startTime;
  return deadline !== undefined && start !== undefined && Date.now() - Date.parse(start) > deadline * 1000;
}

/** A finished pod: nothing of it runs (its sandbox neither), its devices are free; the status is final. */
async function finishPod(ctx: SyncContext, state: PodRuntime): Promise<SyncResult> {
  const { deps, runtime } = ctx;
  ctx.deps.probes.removePod(ctx.uid);
  if ([...state.containers.values()].some((list) => list.some((i) => i.summary.state === 'running'))) {
    await killPodContainers(deps, runtime, ctx.pod, state, gracePeriodOf(ctx.pod));
    state = await observePod(runtime, deps.owner, ctx.uid, deps.cache);
  }
  for (const sandbox of state.sandboxes) {
    // The process runtime's sandboxes run nothing: there is nothing to stop.
    if (sandbox.state === 'running' && runtime.name !== 'process') await runtime.stopContainer(sandbox.id, 0).catch(() => undefined);
  }
  deps.devices.release(ctx.uid);
  ctx.record.startTime ??= ctx.pod.status?.startTime ?? k8sTime();
  ctx.record.terminal ??= { phase: ctx.pod.status?.phase === 'Succeeded' ? 'Succeeded' : 'Failed' };
  await writePodStatus(deps.api, ctx.record, await statusOf(ctx, state));
  return {};
}

/** A pod with a deletionTimestamp: preStop hooks, stop within the grace period, remove, and confirm to the API. */
async function terminatePod(ctx: SyncContext): Promise<void> {
  const { deps, pod } = ctx;
  await cleanUpPod(deps, ctx.uid, pod, gracePeriodOf(pod));
  await deletePodObject(deps, pod);
}

export async function deletePodObject(deps: PodDeps, pod: Pod): Promise<void> {
  const pods = deps.api.resource<Pod>(resources.pods, pod.metadata.namespace);
  try {
    await pods.delete(pod.metadata.name ?? '', { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid ?? '' } });
  } catch (error) {
    // Gone already, or the name now belongs to another pod: either way ours is gone.
    if (!isNotFound(error) && !isConflict(error)) throw error;
  }
}
