// One sync of one pod, as a pipeline of values: read what the runtime holds, obtain the
// sandbox, set up volumes and devices, plan the containers (a pure function of the state) and
// carry the plan out, then write the status that results. Each stage returns what the next
// needs, and when it wants the pod looked at again; the soonest wish is the requeue. A deleted
// pod is ended by terminatePod instead (the manager runs it off its workers): stopped, then
// removed from the API. A finished one keeps its containers (for logs)
// but nothing of it runs. Runtime outages are thrown, so no status is written from a blind read.
import { isConflict, isNotFound, resources } from '../../../client/index.js';
import { k8sTime } from '../../util/time.js';
import { planPod } from './plan.js';
import { removeSupersededContainers } from '../containers/dead-containers.js';
import { observePod, type PodRuntime } from '../observe.js';
import type { PodDeps } from '../deps.js';
import type { PodRecord } from '../record.js';
import { ensureSandbox, type NoSandbox, type ReadySandbox, type SandboxStarting } from '../sandbox/ensure-sandbox.js';
import { carryOutPlan, ensureDevices, ensureVolumes, gpuAdmissionError } from './steps.js';
import { isTerminalPhase } from '../types.js';
import { syncProbes } from '../probes/targets.js';
import { computeStatus, readTerminationMessages, type SyncOutcome } from '../status/compute.js';
import { writePodStatus } from '../status/writer.js';
import { podSync, soonest, type PodSync, type Retry } from '../sync-input.js';
import { gracePeriodOf, killPodContainers } from '../containers/kill.js';
import { cleanUpPod } from './clean-up.js';
import type { Pod, PodStatus } from '../../../api/core/index.js';
import { podStartStages } from '../../../metrics/pod-start-stages.js';

/** A running pod is looked at again this often even when nothing is heard of it. */
export const RESYNC_MS = 10_000;

export interface SyncResult {
  requeueAfterMs?: number;
}

/** One sync of a pod that is not being deleted (a deleted one is ended by terminatePod). */
export async function syncPod(deps: PodDeps, record: PodRecord): Promise<SyncResult> {
  const sync = podSync(deps, record);
  let state = await observePod(sync.runtime, deps.owner, sync.uid, deps.cache);
  if (record.terminal || isTerminalPhase(sync.pod.status?.phase)) return finishPod(sync, state);
  podStartStages.markIfStarting(sync.pod, 'runtimeRead');
  const refusal = deadlineExceeded(sync) ?? (await gpuRejected(sync));
  if (refusal) {
    record.terminal = { phase: 'Failed', ...refusal };
    deps.events.pod(sync.pod, 'Warning', refusal.reason, refusal.message);
    return finishPod(sync, state);
  }
  // The volumes (a service-account token asked of the API, say) are set up while the sandbox is
  // obtained: neither needs the other, and on a pod's first sync both are on its critical path.
  const volumesReady = ensureVolumes(sync);
  volumesReady.catch(() => undefined); // awaited below: this only keeps a sync that throws first from leaving it unhandled
  const obtained = await ensureSandbox(sync, state);
  markSandbox(sync.pod, obtained);
  let outcome: SyncOutcome & Retry = { sandbox: undefined, initDone: false, retryInMs: obtained.kind === 'none' ? obtained.retryInMs : undefined };
  // No sync leaves its volume set-up running behind it: the next could race it, or remove the pod's folder under it.
  if (obtained.kind === 'none') await volumesReady;
  else {
    const run = await runPod(sync, state, obtained, volumesReady);
    outcome = run;
    if (run.changed) state = await observePod(sync.runtime, deps.owner, sync.uid, deps.cache);
    state = await removeSupersededContainers(sync, state);
  }
  syncProbes(sync, state, outcome.sandbox);
  const status = await statusOf(sync, state, outcome);
  if (!(await writePodStatus(deps.api, record, status))) return {};
  if (isTerminalPhase(status.phase)) {
    record.terminal = { phase: status.phase };
    return { requeueAfterMs: 0 };
  }
  return { requeueAfterMs: Math.max(0, Math.min(outcome.retryInMs ?? RESYNC_MS, RESYNC_MS)) };
}

/** The sandbox's stages of the pod's start (a running one, met again in a later sync, marks nothing new). */
function markSandbox(pod: Pod, obtained: ReadySandbox | SandboxStarting | NoSandbox): void {
  if (obtained.kind === 'none') return;
  podStartStages.markIfStarting(pod, 'sandboxCreated');
  if (obtained.kind === 'ready') podStartStages.markIfStarting(pod, 'sandboxStarted');
  else void obtained.running.then((running) => running && podStartStages.markIfStarting(pod, 'sandboxStarted'));
}

type ContainersRun = { initDone: boolean; changed: boolean } & Retry;

/**
 * The containers run in the sandbox; the sandbox handed on is the one the pod has at the end:
 * one made in this sync runs now, with its IP, or is gone when it could not start. Either way no
 * sync leaves a sandbox half-started behind, even one that throws.
 */
async function runPod(
  sync: PodSync,
  state: PodRuntime,
  obtained: ReadySandbox | SandboxStarting,
  volumesReady: VolumesReady,
): Promise<SyncOutcome & ContainersRun> {
  let run: ContainersRun;
  let settled: ReadySandbox | NoSandbox;
  try {
    run = await runContainers(sync, state, obtained, volumesReady);
  } finally {
    settled = obtained.kind === 'starting' ? await obtained.started : obtained;
  }
  const sandbox = settled.kind === 'ready' ? settled.sandbox : undefined;
  return { ...run, sandbox, retryInMs: soonest(run.retryInMs, settled.kind === 'none' ? settled.retryInMs : undefined) };
}

type VolumesReady = ReturnType<typeof ensureVolumes>;

/** Volumes, devices, then the containers' plan (a pure function of the state) carried out. */
async function runContainers(sync: PodSync, state: PodRuntime, obtained: ReadySandbox | SandboxStarting, volumesReady: VolumesReady): Promise<ContainersRun> {
  const { volumes, retryInMs: volumesRetry } = await volumesReady;
  if (!volumes) return { initDone: false, changed: false, retryInMs: volumesRetry };
  podStartStages.markIfStarting(sync.pod, 'volumesReady');
  const { devices, retryInMs: devicesRetry } = ensureDevices(sync);
  if (!devices) return { initDone: false, changed: false, retryInMs: soonest(volumesRetry, devicesRetry) };
  const plan = planPod({
    pod: sync.pod,
    state,
    sandboxId: obtained.sandbox.id,
    backoff: sync.deps.crashBackoff,
    unhealthy: (id) => sync.deps.probes.unhealthy(id),
    startFailedAt: (id) => sync.record.startFailedAt.get(id),
  });
  const sandboxStart = obtained.kind === 'starting' ? obtained : undefined;
  const carried = await carryOutPlan(sync, plan.steps, { sandbox: obtained.sandbox, sandboxStart, volumes, devices });
  return { initDone: plan.initDone, changed: carried.changed, retryInMs: soonest(volumesRetry, devicesRetry, carried.retryInMs) };
}

async function statusOf(sync: PodSync, state: PodRuntime, outcome: SyncOutcome): Promise<PodStatus> {
  await readTerminationMessages(sync, state);
  const status = computeStatus(sync, state, outcome);
  const terminal = sync.record.terminal;
  if (terminal) {
    status.phase = terminal.phase;
    if (terminal.reason) status.reason = terminal.reason;
    if (terminal.message) status.message = terminal.message;
  }
  return status;
}

interface Refusal {
  reason: string;
  message: string;
}

function deadlineExceeded(sync: PodSync): Refusal | undefined {
  const deadline = sync.pod.spec.activeDeadlineSeconds;
  const start = sync.record.startTime ?? sync.pod.status?.startTime;
  if (deadline === undefined || start === undefined || Date.now() - Date.parse(start) <= deadline * 1000) return undefined;
  return { reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline' };
}

async function gpuRejected(sync: PodSync): Promise<Refusal | undefined> {
  const message = await gpuAdmissionError(sync);
  return message ? { reason: 'UnexpectedAdmissionError', message } : undefined;
}

/** A finished pod: nothing of it runs (its sandbox neither), its devices are free; the status is final. */
async function finishPod(sync: PodSync, state: PodRuntime): Promise<SyncResult> {
  const { deps, runtime, pod, record } = sync;
  deps.probes.removePod(sync.uid);
  if ([...state.containers.values()].some((list) => list.some((i) => i.summary.state === 'running'))) {
    await killPodContainers(deps, runtime, pod, state, gracePeriodOf(pod));
    state = await observePod(runtime, deps.owner, sync.uid, deps.cache);
  }
  for (const sandbox of state.sandboxes) {
    // The process runtime's sandboxes run nothing: there is nothing to stop.
    if (sandbox.state === 'running' && runtime.name !== 'process') await runtime.stopContainer(sandbox.id, 0).catch(() => undefined);
  }
  deps.devices.release(sync.uid);
  record.startTime ??= pod.status?.startTime ?? k8sTime();
  record.terminal ??= { phase: pod.status?.phase === 'Succeeded' ? 'Succeeded' : 'Failed' };
  await writePodStatus(deps.api, record, await statusOf(sync, state, { sandbox: undefined, initDone: false }));
  return {};
}

/** A pod with a deletionTimestamp: preStop hooks, stop within the grace period, remove, and confirm to the API. */
export async function terminatePod(deps: PodDeps, record: PodRecord): Promise<void> {
  const { uid, pod } = podSync(deps, record);
  await cleanUpPod(deps, uid, pod, gracePeriodOf(pod));
  await deletePodObject(deps, pod);
}

export async function deletePodObject(deps: PodDeps, pod: Pod): Promise<void> {
  const pods = deps.api.resource<Pod>(resources.pods, pod.metadata.namespace);
  try {
    await pods.delete(pod.metadata.name ?? '', { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid ?? '' } });
  } catch (error) {
    // Gone already, or the name now belongs to another pod: either way ours is gone.
    if (!isConflict(error) && !isNotFound(error)) throw error;
  }
}
