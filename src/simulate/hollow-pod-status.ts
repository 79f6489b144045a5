// The status a hollow node reports for a pod bound to it: every container running and ready
// from the moment it is seen (init containers completed), built by the agent's own rules
// (pod-status.ts) so that phase, conditions and their transition times are those a real
// node would write. No container is started; the container IDs name the hollow runtime.
import { buildPodStatus } from '../agent/pods/status/pod-status.js';
import { k8sTime } from '../agent/util/time.js';
import { HOLLOW_NODE_ADDRESS } from './hollow-node.js';
import type { ContainerStatus, Pod, PodStatus } from '../api/core/index.js';
import { isPodReady } from '../api/core/pod-conditions.js';

function containerId(pod: Pod, index: number): string {
  return `hollow://${pod.metadata.uid ?? ''}-${index}`;
}

export function hollowPodStatus(pod: Pod, podIP: string, now = new Date()): PodStatus {
  const startTime = pod.status?.startTime ?? k8sTime(now);
  const initContainers = pod.spec.initContainers ?? [];
  const initStatuses = initContainers.map((c, i): ContainerStatus => ({
    name: c.name,
    state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: startTime, finishedAt: startTime, containerID: containerId(pod, i) } },
    lastState: {},
    ready: true,
    restartCount: 0,
    image: c.image ?? '',
    imageID: '',
    containerID: containerId(pod, i),
    started: false,
  }));
  const appStatuses = pod.spec.containers.map((c, i): ContainerStatus => ({
    name: c.name,
    state: { running: { startedAt: startTime } },
    lastState: {},
    ready: true,
    restartCount: 0,
    image: c.image ?? '',
    imageID: '',
    containerID: containerId(pod, initContainers.length + i),
    started: true,
  }));
  return buildPodStatus({ pod, initStatuses, appStatuses, sandboxReady: true, podIP, hostIP: HOLLOW_NODE_ADDRESS, startTime, now });
}

/** Whether the pod already shows what a hollow node reports: nothing to write (our own write, echoed). */
export function reportedRunning(pod: Readonly<Pod>): boolean {
  const status = pod.status;
  if (status?.phase !== 'Running' || !status.podIP) return false;
  if ((status.containerStatuses ?? []).length !== pod.spec.containers.length) return false;
  return isPodReady(pod);
}
