// The middle stages of a pod sync: volumes and devices, then the plan's steps (starts,
// restarts under back-off, kills of unhealthy containers). Each returns what it made and when
// it wants the pod looked at again.
import { restartCountAfter } from '../containers/restart-count.js';
import type { Step } from './plan.js';
import { startContainer, startCreated, type StartInput } from '../containers/start.js';
import { GPU_RESOURCE, InsufficientDevicesError, podNeeds, type DeviceSet } from '../devices.js';
import type { SandboxStart } from '../sandbox/ensure-sandbox.js';
import { soonest, type PodSync, type Retry } from '../sync-input.js';
import type { SandboxInfo } from '../../runtime/runtime.js';
import { killContainer } from '../containers/kill.js';
import { setUpVolumes, VolumeError, type VolumePaths } from '../volumes/set-up.js';

/**
 * configMap, secret and projected volumes are refreshed this often, as the kubelet's sync period;
 * a projected token is requested anew at the first refresh after 80 % of its life.
 */
const VOLUME_REFRESH_MS = 60_000;
const MOUNT_RETRY_MS = 5000;

/** The pod's volumes; none while a first set-up fails (the pod waits). */
export async function ensureVolumes(sync: PodSync): Promise<{ volumes: VolumePaths | undefined } & Retry> {
  const { record, deps } = sync;
  if (record.volumes && Date.now() - record.volumesAt < VOLUME_REFRESH_MS) return { volumes: record.volumes };
  try {
    record.volumes = await setUpVolumes({ dataDir: deps.dataDir, pod: sync.pod, sources: deps.sources, localPathDir: deps.localPathDir, tokens: deps.tokens });
    record.volumesAt = Date.now();
    return { volumes: record.volumes };
  } catch (error) {
    if (!(error instanceof VolumeError)) throw error;
    deps.events.pod(sync.pod, 'Warning', 'FailedMount', error.message);
    // A refresh that failed keeps the volumes as they were; a first set-up holds the pod.
    return { volumes: record.volumes, retryInMs: MOUNT_RETRY_MS };
  }
}

/**
 * Why the pod's runtime cannot give it the GPUs it asks for, checked once, before its GPUs are
 * allocated. The pod is then rejected (Failed, UnexpectedAdmissionError, as the kubelet rejects a
 * pod its device plugin cannot serve) rather than left waiting: it would hold GPUs it can never
 * use, and started without them it would run on CPU or crash far from the cause.
 */
export async function gpuAdmissionError(sync: PodSync): Promise<string | undefined> {
  if (sync.deps.devices.has(sync.uid) || !podNeeds(sync.pod, [GPU_RESOURCE])[GPU_RESOURCE]) return undefined;
  const why = await sync.runtime.gpuUnsupported?.();
  return why && `Allocate failed: the pod asks for ${GPU_RESOURCE} but ${why}`;
}

/** The pod's devices; none while the node has too few free (its containers wait). */
export function ensureDevices(sync: PodSync): { devices: DeviceSet | undefined } & Retry {
  try {
    return { devices: sync.deps.devices.allocate(sync.uid, sync.pod) };
  } catch (error) {
    if (!(error instanceof InsufficientDevicesError)) throw error;
    sync.deps.events.pod(sync.pod, 'Warning', error.reason, error.message);
    for (const c of sync.pod.spec.containers) sync.record.waiting.set(c.name, { reason: 'CreateContainerConfigError', message: error.message });
    return { devices: undefined, retryInMs: MOUNT_RETRY_MS };
  }
}

/** Where the plan's containers go: the sandbox (perhaps still starting), the volumes and the devices. */
export interface ContainerSite {
  sandbox: SandboxInfo;
  /** Set while the sandbox is still starting. */
  sandboxStart?: SandboxStart | undefined;
  volumes: VolumePaths;
  devices: DeviceSet;
}

type StartBase = Omit<StartInput, 'container' | 'isInit' | 'attempt'>;
type KillStep = Extract<Step, { kind: 'kill' }>;

function killGrace(sync: PodSync, step: KillStep): number {
  const probe = step.why === 'liveness' ? step.container.livenessProbe : step.why === 'startup' ? step.container.startupProbe : undefined;
  return probe?.terminationGracePeriodSeconds ?? sync.pod.spec.terminationGracePeriodSeconds ?? 30;
}

/** Kills for a failed probe (restarted by policy, next sync) or a changed spec (restarted now, whatever the policy). */
async function runKill(sync: PodSync, step: KillStep, base: StartBase): Promise<Retry> {
  const name = step.container.name;
  const message =
    step.why === 'changed' ? `Container ${name} definition changed, will be restarted` : `Container ${name} failed ${step.why} probe, will be restarted`;
  await killContainer(sync.deps, sync.runtime, sync.pod, step.container, step.instance.id, { message, graceSeconds: killGrace(sync, step) });
  if (step.why !== 'changed') return { retryInMs: 0 };
  const outcome = await startContainer({
    ...base,
    container: step.container,
    isInit: false,
    attempt: step.instance.attempt + 1,
    restartCount: restartCountAfter(step.instance),
  });
  return { retryInMs: outcome.retryInMs };
}

async function runStep(sync: PodSync, step: Step, base: StartBase): Promise<Retry> {
  const { deps, pod } = sync;
  switch (step.kind) {
    case 'start': {
      if (step.restart) deps.crashBackoff.next(step.restart.key, step.restart.eventTime);
      const outcome = await startContainer({ ...base, container: step.container, isInit: step.isInit, attempt: step.attempt, restartCount: step.restartCount });
      return { retryInMs: outcome.retryInMs };
    }
    case 'start-existing': {
      await startCreated({ ...base, container: step.container, isInit: step.isInit, attempt: step.instance.attempt }, step.instance.id);
      return {};
    }
    case 'kill':
      return runKill(sync, step, base);
    case 'backoff': {
      sync.record.waiting.set(step.container.name, { reason: 'CrashLoopBackOff', message: step.message });
      const { name, namespace, uid } = pod.metadata;
      deps.events.container(
        pod,
        step.container.name,
        step.isInit,
        'Warning',
        'BackOff',
        `Back-off restarting failed container ${step.container.name} in pod ${name ?? ''}_${namespace ?? ''}(${uid ?? ''})`,
      );
      return { retryInMs: step.remainingMs };
    }
  }
}

/** Carries the plan's steps out in order; `changed` when anything in the runtime changed. */
export async function carryOutPlan(sync: PodSync, steps: readonly Step[], site: ContainerSite): Promise<{ changed: boolean } & Retry> {
  // Waiting reasons are re-derived by this sync's steps; stale ones must not linger.
  sync.record.waiting.clear();
  const base: StartBase = { deps: sync.deps, runtime: sync.runtime, record: sync.record, ...site };
  let changed = false;
  let retryInMs: number | undefined;
  for (const step of steps) {
    retryInMs = soonest(retryInMs, (await runStep(sync, step, base)).retryInMs);
    if (step.kind !== 'backoff') changed = true;
  }
  return { changed, retryInMs };
}
