// The pod's sandbox: reused while it runs; made anew (after stopping whatever still runs of
// the old one) when it is missing or died, e.g. with the Docker daemon. A restartPolicy
// Never pod whose containers already ran is not started over, as the kubelet decides.
import { ownerLabels } from '../agent-labels.js';
import { RuntimeUnavailableError } from '../runtime/errors.js';
import type { SandboxInfo, SandboxSpec, StartingSandbox } from '../runtime/runtime.js';
import { keptAcrossSandboxes } from './dead-containers.js';
import { runningSandbox, type PodRuntime } from './observe.js';
import { restartPolicyOf, sandboxPorts } from './pod-types.js';
import type { SyncContext } from './sync-context.js';
import { gracePeriodOf, killPodContainers } from './termination.js';

function sandboxKey(ctx: SyncContext): string {
  return `${ctx.uid}/~sandbox`;
}

/** The sandbox could not be made: reported, and tried again under the back-off. */
function sandboxFailed(ctx: SyncContext, error: unknown): undefined {
  if (error instanceof RuntimeUnavailableError) throw error;
  const { deps, pod } = ctx;
  const key = sandboxKey(ctx);
  const message = (error as Error).message;
  const at = Date.now();
  deps.crashBackoff.next(key, at);
  ctx.record.sandboxError = { at, message };
  deps.events.pod(pod, 'Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: ${message}`);
  ctx.retry(deps.crashBackoff.remaining(key, at));
  return undefined;
}

/**
 * A made sandbox: the dead ones go, and with them the containers that were joined to them, but
 * the newest of each name, which `logs --previous` reads.
 */
async function sandboxMade(ctx: SyncContext, state: PodRuntime, sandbox: SandboxInfo): Promise<SandboxInfo> {
  ctx.record.sandboxError = undefined;
  const kept = keptAcrossSandboxes(state);
  for (const old of state.sandboxes) await ctx.runtime.removeSandbox(old.id, kept);
  return sandbox;
}

/**
 * Makes the sandbox. Where the runtime can, this returns as soon as it exists and leaves a
 * SandboxStart on the context: the pod's containers are made while it starts.
 */
async function createSandbox(ctx: SyncContext, state: PodRuntime): Promise<SandboxInfo | undefined> {
  const { pod, deps } = ctx;
  const failed = ctx.record.sandboxError;
  const wait = failed ? deps.crashBackoff.remaining(sandboxKey(ctx), failed.at) : 0;
  if (wait > 0) {
    ctx.retry(wait);
    return undefined;
  }
  const spec: SandboxSpec = {
    pod: { uid: ctx.uid, name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? 'default' },
    attempt: (state.sandboxes[0]?.attempt ?? -1) + 1,
    hostname: (pod.spec.hostname ?? pod.metadata.name ?? '').slice(0, 63),
    ports: sandboxPorts(pod),
    hostNetwork: pod.spec.hostNetwork === true,
    addressRange: deps.nodePodCidr(),
    labels: ownerLabels(deps.owner),
  };
  if (!ctx.runtime.beginSandbox) {
    const sandbox = await ctx.runtime.createSandbox(spec).catch((error: unknown) => sandboxFailed(ctx, error));
    return sandbox && sandboxMade(ctx, state, sandbox);
  }
  let starting: StartingSandbox;
  try {
    starting = await ctx.runtime.beginSandbox(spec);
  } catch (error) {
    return sandboxFailed(ctx, error);
  }
  deps.reaper.sandboxStarting(starting.running);
  const started = starting.started.then((sandbox) => sandboxMade(ctx, state, sandbox), (error: unknown) => sandboxFailed(ctx, error));
  // The sync awaits it; this only keeps a sync that throws first from leaving it unhandled.
  started.catch(() => undefined);
  ctx.sandboxStart = { running: starting.running.then(() => true, () => false), started };
  return starting.created;
}

/**
 * The sandbox, after making one when needed; undefined while it cannot be had. A new one may
 * still be starting: see SyncContext.sandboxStart.
 */
export async function ensureSandbox(ctx: SyncContext, state: PodRuntime): Promise<SandboxInfo | undefined> {
  const running = runningSandbox(state);
  if (running) return running;
  const ranBefore = [...state.containers.values()].some((list) => list.length > 0);
  if (ranBefore && restartPolicyOf(ctx.pod) === 'Never') return undefined;
  if (state.sandboxes.length > 0) {
    ctx.deps.events.pod(ctx.pod, 'Normal', 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.');
    await killPodContainers(ctx.deps, ctx.runtime, ctx.pod, state, gracePeriodOf(ctx.pod));
  }
  return createSandbox(ctx, state);
}
