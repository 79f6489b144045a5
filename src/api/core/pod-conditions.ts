// A pod's conditions as the controllers read them (the role of Kubernetes' podutil): Ready,
// when it became Ready, and availability after minReadySeconds. One copy for every caller, so
// the ReplicaSet, DaemonSet, StatefulSet, Job, endpoints and disruption code count alike.
import type { Pod, PodCondition } from './pod.js';

/** What these helpers read of a pod: only its status. */
export type PodWithStatus = Readonly<Pick<Pod, 'status'>>;

export function podCondition(pod: PodWithStatus, type: string): Readonly<PodCondition> | undefined {
  return pod.status?.conditions?.find((c) => c.type === type);
}

export function isPodReady(pod: PodWithStatus): boolean {
  return podCondition(pod, 'Ready')?.status === 'True';
}

/**
 * When the pod last became Ready (epoch ms); undefined when it is not Ready or the time is
 * unknown. Kubernetes treats a zero lastTransitionTime as "not available yet", and so do we.
 */
export function podReadySince(pod: PodWithStatus): number | undefined {
  const ready = podCondition(pod, 'Ready');
  if (ready?.status !== 'True') return undefined;
  const at = Date.parse(ready.lastTransitionTime ?? '');
  return Number.isFinite(at) ? at : undefined;
}

/** Ready for at least minReadySeconds (podutil.IsPodAvailable). */
export function isPodAvailable(pod: PodWithStatus, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const since = podReadySince(pod);
  return since !== undefined && since + minReadySeconds * 1000 <= now;
}

/** Milliseconds until a Ready pod becomes available; undefined when it is not Ready or already is. */
export function msUntilPodAvailable(pod: PodWithStatus, minReadySeconds: number, now: number): number | undefined {
  if (minReadySeconds <= 0) return undefined;
  const since = podReadySince(pod);
  if (since === undefined) return undefined;
  const left = since + minReadySeconds * 1000 - now;
  return left > 0 ? left : undefined;
}

/** The soonest of msUntilPodAvailable over many pods: when a controller should look again. */
export function msUntilNextAvailable(pods: readonly PodWithStatus[], minReadySeconds: number, now: number): number | undefined {
  let soonest: number | undefined;
  for (const pod of pods) {
    const wait = msUntilPodAvailable(pod, minReadySeconds, now);
    if (wait !== undefined && (soonest === undefined || wait < soonest)) soonest = wait;
  }
  return soonest;
}
