// Stopping containers as the kubelet does: the preStop hook first (within the grace period),
// then the stop signal and SIGKILL when the rest of the grace period has passed; for a pod,
// every container at once.
import { ContainerNotFoundError, NotRunningError } from '../../runtime/errors.js';
import type { ContainerRuntime } from '../../runtime/runtime.js';
import { runHandler } from '../probes/handlers.js';
import type { PodRuntime } from '../observe.js';
import type { PodDeps } from '../deps.js';
import type { Container, Pod } from '../../../api/core/index.js';

export interface KillOptions {
  /** Killing event message; "Stopping container NAME" when unset. */
  message?: string;
  reason?: string;
  graceSeconds?: number;
  runPreStop?: boolean;
}

/** As the kubelet: after a preStop hook the container still gets 2 s to stop. */
const MIN_GRACE_AFTER_PRESTOP_S = 2;

export function gracePeriodOf(pod: Pod): number {
  return pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30;
}

export async function killContainer(
  deps: PodDeps,
  runtime: ContainerRuntime,
  pod: Pod,
  container: Container | undefined,
  id: string,
  opts: KillOptions = {},
): Promise<void> {
  const grace = opts.graceSeconds ?? gracePeriodOf(pod);
  const name = container?.name ?? 'unknown';
  if (container) deps.events.container(pod, name, false, 'Normal', 'Killing', opts.message ?? `Stopping container ${name}`);
  const started = Date.now();
  let remaining = grace;
  const preStop = container?.lifecycle?.preStop;
  if (preStop && opts.runPreStop !== false && grace > 0) {
    const sandboxId = runtime.name === 'process' ? undefined : await sandboxOf(runtime, id);
    const result = await runHandler({ runtime, containerId: id, sandboxId, container: container! }, preStop, grace * 1000);
    if (!result.ok) deps.events.container(pod, name, false, 'Warning', 'FailedPreStopHook', `PreStopHook failed: ${result.output}`);
    remaining = Math.max(grace - (Date.now() - started) / 1000, MIN_GRACE_AFTER_PRESTOP_S);
  }
  try {
    await runtime.stopContainer(id, remaining);
  } catch (error) {
    if (!(error instanceof NotRunningError) && !(error instanceof ContainerNotFoundError)) throw error;
  } finally {
    deps.cache.forget(id);
  }
}

async function sandboxOf(runtime: ContainerRuntime, id: string): Promise<string | undefined> {
  const status = await runtime.inspectContainer(id).catch(() => undefined);
  return status?.labels['drover.dev/sandbox-id'];
}

function containerSpecByName(pod: Pod | undefined, name: string): Container | undefined {
  return pod?.spec.containers.find((c) => c.name === name) ?? pod?.spec.initContainers?.find((c) => c.name === name);
}

/** Stops every running container of the pod in parallel, each with its preStop hook. */
export async function killPodContainers(
  deps: PodDeps,
  runtime: ContainerRuntime,
  pod: Pod | undefined,
  state: PodRuntime,
  graceSeconds: number,
): Promise<void> {
  const kills: Array<Promise<void>> = [];
  for (const [name, instances] of state.containers) {
    for (const instance of instances) {
      if (instance.summary.state !== 'running') continue;
      const container = containerSpecByName(pod, name);
      kills.push(
        pod
          ? killContainer(deps, runtime, pod, container, instance.id, { graceSeconds })
          : runtime.stopContainer(instance.id, graceSeconds).catch(() => undefined),
      );
    }
  }
  await Promise.all(kills);
}
