// The pod's sandbox: reused while it runs; made anew (after stopping whatever still runs of
// the old one) when it is missing or died, e.g. with the Docker daemon. A restartPolicy
// Never pod whose containers already ran is not started over, as the kubelet decides.
//
// This is the one stage that knows how a pod gets its sandbox: the rest of the sync sees only
// the SandboxOutcome it returns. A pod that can use one claims a sandbox of the node's pool
// (pool.ts) before it makes its own.
import { ownerLabels } from '../../agent-labels.js';
import { RuntimeUnavailableError } from '../../runtime/errors.js';
import type { SandboxInfo, SandboxSpec, StartingSandbox } from '../../runtime/runtime.js';
import { keptAcrossSandboxes } from '../containers/dead-containers.js';
import { runningSandbox, type PodRuntime } from '../observe.js';
import { restartPolicyOf, sandboxHoldsNoNodeResource, sandboxPorts } from '../types.js';
import type { PodSync } from '../sync-input.js';
import { gracePeriodOf, killPodContainers } from '../containers/kill.js';

/** The sandbox runs, with its IP: containers may be made and started in it. */
export interface ReadySandbox {
  kind: 'ready';
  sandbox: SandboxInfo;
}

/** No sandbox this sync: it cannot be had now (retried after retryInMs) or must not be made. */
export interface NoSandbox {
  kind: 'none';
  retryInMs?: number;
}

/** A sandbox made in this sync that is still starting. */
export interface SandboxStart {
  /** True once it runs (containers may start in it); false when it could not start. */
  running: Promise<boolean>;
  /** The running sandbox with its IP, or none when it could not start (that is reported). */
  started: Promise<ReadySandbox | NoSandbox>;
}

/** Made in this sync, not running yet: containers are made in it meanwhile and started once it runs. */
export interface SandboxStarting extends SandboxStart {
  kind: 'starting';
  /** The sandbox as created: its id is final, it has no IP yet. */
  sandbox: SandboxInfo;
}

export type SandboxOutcome = ReadySandbox | SandboxStarting | NoSandbox;

/** How a sync obtains its pod's sandbox. */
export type SandboxStage = (sync: PodSync, state: PodRuntime) => Promise<SandboxOutcome>;

function sandboxKey(sync: PodSync): string {
  return `${sync.uid}/~sandbox`;
}

/** The sandbox could not be made: reported, and tried again under the back-off. */
function sandboxFailed(sync: PodSync, error: unknown): NoSandbox {
  if (error instanceof RuntimeUnavailableError) throw error;
  const { deps, pod } = sync;
  const key = sandboxKey(sync);
  const message = (error as Error).message;
  const at = Date.now();
  deps.crashBackoff.next(key, at);
  sync.record.sandboxError = { at, message };
  deps.events.pod(pod, 'Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: ${message}`);
  return { kind: 'none', retryInMs: deps.crashBackoff.remaining(key, at) };
}

/**
 * A made sandbox: the dead ones go, and with them the containers that were joined to them, but
 * the newest of each name, which `logs --previous` reads.
 */
async function sandboxMade(sync: PodSync, state: PodRuntime, sandbox: SandboxInfo): Promise<ReadySandbox> {
  sync.record.sandboxError = undefined;
  const kept = keptAcrossSandboxes(state);
  for (const old of state.sandboxes) await sync.runtime.removeSandbox(old.id, kept);
  return { kind: 'ready', sandbox };
}

function sandboxSpec(sync: PodSync, state: PodRuntime): SandboxSpec {
  const { pod, deps } = sync;
  return {
    pod: { uid: sync.uid, name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? 'default' },
    attempt: (state.sandboxes[0]?.attempt ?? -1) + 1,
    // As the kubelet: at most 63 characters, without a '-' or '.' the cut left at the end.
    hostname: (pod.spec.hostname || pod.metadata.name || '').slice(0, 63).replace(/[-.]+$/, ''),
    ports: sandboxPorts(pod),
    hostNetwork: pod.spec.hostNetwork === true,
    addressRange: deps.nodePodCidr(),
    labels: ownerLabels(deps.owner),
  };
}

/**
 * A sandbox of the pool made the pod's (pool.ts), for a pod whose sandbox holds nothing of the
 * node's: hostPorts are bound when a sandbox is made, and the host's network is no sandbox's.
 * Undefined when the pod makes its own (no pool, none ready, or a pod that cannot use one).
 */
async function claimPooledSandbox(sync: PodSync, spec: SandboxSpec): Promise<ReadySandbox | NoSandbox | undefined> {
  const pool = sync.deps.sandboxPool;
  if (!pool || pool.runtime !== sync.runtime || !sandboxHoldsNoNodeResource(sync.pod)) return undefined;
  try {
    const sandbox = await pool.claim({ pod: spec.pod, attempt: spec.attempt, hostname: spec.hostname || spec.pod.name });
    return sandbox && { kind: 'ready', sandbox };
  } catch (error) {
    return sandboxFailed(sync, error);
  }
}

/**
 * Makes the sandbox. Where the runtime can, this returns as soon as it exists, as a starting
 * sandbox: the pod's containers are made while it starts.
 */
async function createSandbox(sync: PodSync, state: PodRuntime): Promise<SandboxOutcome> {
  const { deps, runtime } = sync;
  const failed = sync.record.sandboxError;
  const wait = failed ? deps.crashBackoff.remaining(sandboxKey(sync), failed.at) : 0;
  if (wait > 0) return { kind: 'none', retryInMs: wait };
  const spec = sandboxSpec(sync, state);
  const pooled = await claimPooledSandbox(sync, spec);
  if (pooled) return pooled.kind === 'ready' ? sandboxMade(sync, state, pooled.sandbox) : pooled;
  if (!runtime.beginSandbox) {
    let made: SandboxInfo;
    try {
      made = await runtime.createSandbox(spec);
    } catch (error) {
      return sandboxFailed(sync, error);
    }
    return sandboxMade(sync, state, made);
  }
  let starting: StartingSandbox;
  try {
    starting = await runtime.beginSandbox(spec);
  } catch (error) {
    return sandboxFailed(sync, error);
  }
  deps.reaper.sandboxStarting(starting.running);
  const started = starting.started.then(
    (sandbox) => sandboxMade(sync, state, sandbox),
    (error: unknown) => sandboxFailed(sync, error),
  );
  // The sync awaits it; this only keeps a sync that throws first from leaving it unhandled.
  started.catch(() => undefined);
  return {
    kind: 'starting',
    sandbox: starting.created,
    running: starting.running.then(
      () => true,
      () => false,
    ),
    started,
  };
}

/** The sandbox, after making one when needed; none while it cannot be had. */
export const ensureSandbox: SandboxStage = async (sync, state) => {
  const running = runningSandbox(state);
  if (running) return { kind: 'ready', sandbox: running };
  const ranBefore = [...state.containers.values()].some((list) => list.length > 0);
  if (ranBefore && restartPolicyOf(sync.pod) === 'Never') return { kind: 'none' };
  if (state.sandboxes.length > 0) {
    sync.deps.events.pod(sync.pod, 'Normal', 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.');
    await killPodContainers(sync.deps, sync.runtime, sync.pod, state, gracePeriodOf(sync.pod));
  }
  return createSandbox(sync, state);
};
