// Which container restarts and pod failures this controller has counted into a job's
// status.restarts. The count itself lives in the job's status and survives restarts of the
// controller; the ledger only remembers, per pod uid, how much of the pod's restartCount is in
// it. A pod this process created starts at 0; a pod first seen after a controller restart is
// taken as counted up to its current restartCount (restarts that happened while no controller
// ran are not counted — the only ones lost, and only for pods that kept running).
import type { Pod } from '../../api/core/index.js';

interface Seen {
  restarts: number;
  failureCounted: boolean;
}

export function restartsOf(pod: Readonly<Pod>): number {
  let sum = 0;
  for (const s of pod.status?.initContainerStatuses ?? []) sum += s.restartCount ?? 0;
  for (const s of pod.status?.containerStatuses ?? []) sum += s.restartCount ?? 0;
  return sum;
}

export class RestartLedger {
  private readonly byPod = new Map<string, Seen>();

  /** A pod this controller just created: all its restarts are new. */
  created(uid: string): void {
    this.byPod.set(uid, { restarts: 0, failureCounted: false });
  }

  private seen(pod: Readonly<Pod>): Seen {
    const uid = pod.metadata.uid ?? '';
    let seen = this.byPod.get(uid);
    if (!seen) this.byPod.set(uid, (seen = { restarts: restartsOf(pod), failureCounted: false }));
    return seen;
  }

  newRestarts(pod: Readonly<Pod>): number {
    return Math.max(0, restartsOf(pod) - this.seen(pod).restarts);
  }

  failureCounted(pod: Readonly<Pod>): boolean {
    return this.seen(pod).failureCounted;
  }

  /** The pass wrote the job's status with these pods' restarts (and these failures) counted. */
  commit(pods: readonly Readonly<Pod>[], countedFailures: readonly string[]): void {
    const failures = new Set(countedFailures);
    for (const pod of pods) {
      const seen = this.seen(pod);
      seen.restarts = Math.max(seen.restarts, restartsOf(pod));
      if (failures.has(pod.metadata.uid ?? '')) seen.failureCounted = true;
    }
  }

  forget(uid: string): void {
    this.byPod.delete(uid);
  }
}
