// From the runtime's state to what the API shows: container statuses, the pod status, and the
// termination messages the containers left.
import { k8sTime } from '../../util/time.js';
import { containerStatus } from './container-status.js';
import { terminationMessage } from '../containers/spec.js';
import { hasFinished, type PodRuntime } from '../observe.js';
import { buildPodStatus } from './pod-status.js';
import { latestStatus } from './writer.js';
import type { PodSync } from '../sync-input.js';
import type { SandboxInfo } from '../../runtime/runtime.js';
import type { ContainerStatus, PodStatus } from '../../../api/core/index.js';

/** Reads the termination messages of finished instances not read yet. */
export async function readTerminationMessages(sync: PodSync, state: PodRuntime): Promise<void> {
  const cache = sync.record.messages;
  const all = [...(sync.pod.spec.initContainers ?? []), ...sync.pod.spec.containers];
  for (const container of all) {
    for (const instance of (state.containers.get(container.name) ?? []).slice(0, 2)) {
      if (cache.has(instance.id) || !hasFinished(instance) || instance.status?.state !== 'exited') continue;
      const text = await terminationMessage(sync.runtime, sync.deps.dataDir, sync.pod, container, instance.id, instance.attempt, instance.status.exitCode);
      cache.set(instance.id, text);
    }
  }
}

/** What this sync made of the pod, beyond the runtime's state: its sandbox and whether its init containers are done. */
export interface SyncOutcome {
  sandbox: SandboxInfo | undefined;
  initDone: boolean;
}

function statusesOf(sync: PodSync, state: PodRuntime, outcome: SyncOutcome, isInit: boolean): ContainerStatus[] {
  const { deps, record, pod } = sync;
  const containers = (isInit ? pod.spec.initContainers : pod.spec.containers) ?? [];
  const previous = (isInit ? pod.status?.initContainerStatuses : pod.status?.containerStatuses) ?? [];
  const hasInit = (pod.spec.initContainers ?? []).length > 0;
  const defaultWaiting = isInit || (hasInit && !outcome.initDone) ? 'PodInitializing' : 'ContainerCreating';
  const cache = record.messages;
  return containers.map((container) =>
    containerStatus({
      container,
      isInit,
      instances: state.containers.get(container.name) ?? [],
      waiting: record.waiting.get(container.name),
      defaultWaiting,
      runtimeName: sync.runtime.name,
      previous: previous.find((s) => s.name === container.name),
      ready: (id) => deps.probes.ready(id, container),
      started: (id) => deps.probes.started(id, container),
      terminationMessage: (id) => cache.get(id) || undefined,
      startFailedAt: (id) => record.startFailedAt.get(id),
    }),
  );
}

export function computeStatus(sync: PodSync, state: PodRuntime, outcome: SyncOutcome): PodStatus {
  const { record, pod } = sync;
  record.startTime ??= pod.status?.startTime ?? k8sTime();
  // Remembered here: the informer's copy may predate the write that first carried it.
  if (outcome.sandbox?.ip) record.podIP = outcome.sandbox.ip;
  record.podIP ??= pod.status?.podIP;
  return buildPodStatus({
    pod,
    initStatuses: statusesOf(sync, state, outcome, true),
    appStatuses: statusesOf(sync, state, outcome, false),
    sandboxReady: outcome.sandbox !== undefined,
    podIP: record.podIP ?? '',
    hostIP: sync.deps.nodeAddress,
    startTime: record.startTime,
    previous: latestStatus(record),
  });
}
