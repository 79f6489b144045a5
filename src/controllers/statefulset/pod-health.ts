// What the StatefulSet controller asks of a pod (Kubernetes' stateful_set_utils): is it
// created, terminating, running and ready, available, healthy (finished is isPodFinished).
import { isPodAvailable, isPodReady } from '../../api/core/pod-conditions.js';
import type { Pod } from '../../api/core/index.js';

export function isTerminating(pod: Readonly<Pod>): boolean {
  return pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;
}

export function isRunningAndReady(pod: Readonly<Pod>): boolean {
  return pod.status?.phase === 'Running' && isPodReady(pod);
}

export function isRunningAndAvailable(pod: Readonly<Pod>, minReadySeconds: number, now: number): boolean {
  return pod.status?.phase === 'Running' && isPodAvailable(pod, minReadySeconds, now);
}

/** Running, ready for minReadySeconds, and not on its way out. */
export function isHealthy(pod: Readonly<Pod>, minReadySeconds: number, now: number): boolean {
  return isRunningAndReady(pod) && isRunningAndAvailable(pod, minReadySeconds, now) && !isTerminating(pod);
}
