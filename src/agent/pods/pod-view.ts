// From the runtime's state to what the API shows: container statuses, the pod status, the
// probe workers for the running containers, and the termination messages they left.
import { SANDBOX_ID } from '../runtime/labels.js';
import { k8sTime } from '../util/time.js';
import { containerStatus } from './container-status.js';
import { terminationMessage } from './container-spec.js';
import { hasFinished, type PodRuntime } from './observe.js';
import { buildPodStatus } from './pod-status.js';
import type { ProbeTarget } from './probes.js';
import { latestStatus } from './status-writer.js';
import type { SyncContext } from './sync-context.js';
import type { Container, ContainerStatus, PodStatus } from '../../api/core/index.js';

/** Reads the termination messages of finished instances not read yet. */
export async function readTerminationMessages(ctx: SyncContext, state: PodRuntime): Promise<void> {
  const cache = ctx.record.messages;
  const all = [...(ctx.pod.spec.initContainers ?? []), ...ctx.pod.spec.containers];
  for (const container of all) {
    for (const instance of (state.containers.get(container.name) ?? []).slice(0, 2)) {
      if (cache.has(instance.id) || !hasFinished(instance) || instance.status?.state !== 'exited') continue;
      const text = await terminationMessage(ctx.runtime, ctx.deps.dataDir, ctx.pod, container, instance.id, instance.attempt, instance.status.exitCode);
      cache.set(instance.id, text);
    }
  }
}

function statusesOf(ctx: SyncContext, state: PodRuntime, containers: readonly Container[], isInit: boolean): ContainerStatus[] {
  const { deps, record } = ctx;
  const previous = (isInit ? ctx.pod.status?.initContainerStatuses : ctx.pod.status?.containerStatuses) ?? [];
  const hasInit = (ctx.pod.spec.initContainers ?? []).length > 0;
  const defaultWaiting = isInit || (hasInit && !ctx.initDone) ? 'PodInitializing' : 'ContainerCreating';
  const cache = ctx.record.messages;
  return containers.map((container) => containerStatus({
    container,
    isInit,
    instances: state.containers.get(container.name) ?? [],
    waiting: record.waiting.get(container.name),
    defaultWaiting,
    runtimeName: ctx.runtime.name,
    previous: previous.find((s) => s.name === container.name),
    ready: (id) => deps.probes.ready(id, container),
    started: (id) => deps.probes.started(id, container),
    terminationMessage: (id) => cache.get(id) || undefined,
    startFailedAt: (id) => record.startFailedAt.get(id),
  }));
}

export function computeStatus(ctx: SyncContext, state: PodRuntime): PodStatus {
  const { record } = ctx;
  record.startTime ??= ctx.pod.status?.startTime ?? k8sTime();
  // Remembered here: the informer's copy may predate the write that first carried it.
  if (ctx.sandbox?.ip) record.podIP = ctx.sandbox.ip;
  record.podIP ??= ctx.pod.status?.podIP;
  return buildPodStatus({
    pod: ctx.pod,
    initStatuses: statusesOf(ctx, state, ctx.pod.spec.initContainers ?? [], true),
    appStatuses: statusesOf(ctx, state, ctx.pod.spec.containers, false),
    sandboxReady: ctx.sandbox !== undefined,
    podIP: record.podIP ?? '',
    hostIP: ctx.deps.nodeAddress,
    startTime: record.startTime,
    previous: latestStatus(record),
  });
}

/** Probe workers for the app containers running in the current sandbox. */
export function syncProbes(ctx: SyncContext, state: PodRuntime): void {
  const targets: ProbeTarget[] = [];
  const sandbox = ctx.sandbox;
  const previous = ctx.pod.status?.containerStatuses ?? [];
  for (const container of sandbox ? ctx.pod.spec.containers : []) {
    const newest = state.containers.get(container.name)?.[0];
    if (newest?.status?.state !== 'running' || newest.summary.labels[SANDBOX_ID] !== sandbox!.id) continue;
    const api = previous.find((s) => s.name === container.name);
    targets.push({
      pod: ctx.pod,
      container,
      containerId: newest.id,
      startedAt: newest.status.startedAt ?? newest.status.createdAt,
      handler: { runtime: ctx.runtime, containerId: newest.id, sandboxId: ctx.runtime.name === 'process' ? undefined : sandbox!.id, container },
      wasReady: api?.containerID === `${ctx.runtime.name}://${newest.id}` && api.ready,
    });
  }
  ctx.deps.probes.sync(ctx.uid, targets);
}
