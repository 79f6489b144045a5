// The middle stages of a pod sync: volumes and devices, then the plan's steps (starts,
// restarts under back-off, kills of unhealthy containers).
import { restartCountAfter } from './restart-count.js';
import { planPod, type Step } from './container-plan.js';
import { startContainer, startCreated, type StartInput } from './container-start.js';
import { GPU_RESOURCE, InsufficientDevicesError, podNeeds, type DeviceSet } from './devices.js';
import type { PodRuntime } from './observe.js';
import type { SyncContext } from './sync-context.js';
import { killContainer } from './termination.js';
import { setUpVolumes, VolumeError, type VolumePaths } from './volumes.js';

/**
 * configMap, secret and projected volumes are refreshed this often, as the kubelet's sync period;
 * a projected token is requested anew at the first refresh after 80 % of its life.
 */
const VOLUME_REFRESH_MS = 60_000;
const MOUNT_RETRY_MS = 5000;

export async function ensureVolumes(ctx: SyncContext): Promise<VolumePaths | undefined> {
  const { record } = ctx;
  if (record.volumes && Date.now() - record.volumesAt < VOLUME_REFRESH_MS) return record.volumes;
  try {
    record.volumes = await setUpVolumes({ dataDir: ctx.deps.dataDir, pod: ctx.pod, sources: ctx.deps.sources, localPathDir: ctx.deps.localPathDir, tokens: ctx.deps.tokens });
    record.volumesAt = Date.now();
    return record.volumes;
  } catch (error) {
    if (!(error instanceof VolumeError)) throw error;
    ctx.deps.events.pod(ctx.pod, 'Warning', 'FailedMount', error.message);
    ctx.retry(MOUNT_RETRY_MS);
    // A refresh that failed keeps the volumes as they were; a first set-up holds the pod.
    return record.volumes;
  }
}

/**
 * Why the pod's runtime cannot give it the GPUs it asks for, checked once, before its GPUs are
 * allocated. The pod is then rejected (Failed, UnexpectedAdmissionError, as the kubelet rejects a
 * pod its device plugin cannot serve) rather than left waiting: it would hold GPUs it can never
 * use, and started without them it would run on CPU or crash far from the cause.
 */
export async function gpuAdmissionError(ctx: SyncContext): Promise<string | undefined> {
  if (ctx.deps.devices.has(ctx.uid) || !podNeeds(ctx.pod, [GPU_RESOURCE])[GPU_RESOURCE]) return undefined;
  const why = await ctx.runtime.gpuUnsupported?.();
  return why && `Allocate failed: the pod asks for ${GPU_RESOURCE} but ${why}`;
}

export function ensureDevices(ctx: SyncContext): DeviceSet | undefined {
  try {
    return ctx.deps.devices.allocate(ctx.uid, ctx.pod);
  } catch (error) {
    if (!(error instanceof InsufficientDevicesError)) throw error;
    ctx.deps.events.pod(ctx.pod, 'Warning', error.reason, error.message);
    for (const c of ctx.pod.spec.containers) ctx.record.waiting.set(c.name, { reason: 'CreateContainerConfigError', message: error.message });
    ctx.retry(MOUNT_RETRY_MS);
    return undefined;
  }
}

type KillStep = Extract<Step, { kind: 'kill' }>;

function killGrace(ctx: SyncContext, step: KillStep): number {
  const probe = step.why === 'liveness' ? step.container.livenessProbe : step.why === 'startup' ? step.container.startupProbe : undefined;
  return probe?.terminationGracePeriodSeconds ?? ctx.pod.spec.terminationGracePeriodSeconds ?? 30;
}

/** Kills for a failed probe (restarted by policy, next sync) or a changed spec (restarted now, whatever the policy). */
async function runKill(ctx: SyncContext, step: KillStep, base: Omit<StartInput, 'container' | 'isInit' | 'attempt'>): Promise<void> {
  const name = step.container.name;
  const message = step.why === 'changed'
    ? `Container ${name} definition changed, will be restarted`
    : `Container ${name} failed ${step.why} probe, will be restarted`;
  await killContainer(ctx.deps, ctx.runtime, ctx.pod, step.container, step.instance.id, { message, graceSeconds: killGrace(ctx, step) });
  if (step.why !== 'changed') return ctx.retry(0);
  const outcome = await startContainer({ ...base, container: step.container, isInit: false, attempt: step.instance.attempt + 1, restartCount: restartCountAfter(step.instance) });
  ctx.retry(outcome.retryInMs);
}

async function runStep(ctx: SyncContext, step: Step, base: Omit<StartInput, 'container' | 'isInit' | 'attempt'>): Promise<void> {
  const { deps, pod } = ctx;
  switch (step.kind) {
    case 'start': {
      if (step.restart) deps.crashBackoff.next(step.restart.key, step.restart.eventTime);
      const outcome = await startContainer({ ...base, container: step.container, isInit: step.isInit, attempt: step.attempt, restartCount: step.restartCount });
      ctx.retry(outcome.retryInMs);
      return;
    }
    case 'start-existing': {
      await startCreated({ ...base, container: step.container, isInit: step.isInit, attempt: step.instance.attempt }, step.instance.id);
      return;
    }
    case 'kill':
      return runKill(ctx, step, base);
    case 'backoff': {
      ctx.record.waiting.set(step.container.name, { reason: 'CrashLoopBackOff', message: step.message });
      const { name, namespace, uid } = pod.metadata;
      deps.events.container(pod, step.container.name, step.isInit, 'Warning', 'BackOff',
        `Back-off restarting failed container ${step.container.name} in pod ${name ?? ''}_${namespace ?? ''}(${uid ?? ''})`);
      ctx.retry(step.remainingMs);
      return;
    }
  }
}

/** Plans the containers and carries the plan out; true when anything in the runtime changed. */
export async function runContainers(ctx: SyncContext, state: PodRuntime, volumes: VolumePaths, devices: DeviceSet): Promise<boolean> {
  const sandbox = ctx.sandbox!;
  const { deps } = ctx;
  const plan = planPod({
    pod: ctx.pod, state, sandboxId: sandbox.id, backoff: deps.crashBackoff,
    unhealthy: (id) => deps.probes.unhealthy(id),
    startFailedAt: (id) => ctx.record.startFailedAt.get(id),
  });
  ctx.initDone = plan.initDone;
  ctx.initFailed = plan.initFailed;
  // Waiting reasons are re-derived by this sync's steps; stale ones must not linger.
  ctx.record.waiting.clear();
  const base = { deps, runtime: ctx.runtime, record: ctx.record, sandbox, sandboxStart: ctx.sandboxStart, volumes, devices };
  let changed = false;
  for (const step of plan.steps) {
    await runStep(ctx, step, base);
    if (step.kind !== 'backoff') changed = true;
  }
  return changed;
}

