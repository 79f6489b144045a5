// How long a Job waits before replacing failed pods (the Job controller's backoffRecord): 10 s
// after the first failure since the last success, doubling per further failure up to 10 min,
// counted from the latest failure. The waiting is the keyed back-off's; this adds what a Job
// counts: each failed pod once, from when it finished, until a pod succeeds.
import type { Pod } from '../../api/core/index.js';
import { KeyedBackoff } from '../../util/keyed-backoff.js';

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_POD_FAILURE_BACKOFF: BackoffPolicy = { baseMs: 10_000, maxMs: 10 * 60_000 };

export class FailureBackoff {
  /** Failures since the last success: a Job's count never starts over with time, only with a success. */
  private readonly backoff: KeyedBackoff;
  /** Failed pods already counted, by Job: a pass that is retried must not count them again. */
  private readonly counted = new Map<string, Set<string>>();

  constructor(policy: BackoffPolicy = DEFAULT_POD_FAILURE_BACKOFF) {
    this.backoff = new KeyedBackoff({ initialMs: policy.baseMs, maxMs: policy.maxMs, forgetAfterMs: Infinity });
  }

  /** Counts the pods a pass saw finish: a success resets the record. */
  observe(jobUid: string, newSucceeded: number, newFailed: readonly Readonly<Pod>[], now: number): void {
    if (newSucceeded > 0) return this.forget(jobUid);
    if (newFailed.length === 0) return;
    let counted = this.counted.get(jobUid);
    if (!counted) this.counted.set(jobUid, (counted = new Set<string>()));
    for (const pod of newFailed) {
      const uid = pod.metadata.uid ?? '';
      if (counted.has(uid)) continue;
      counted.add(uid);
      this.backoff.next(jobUid, finishedAt(pod, now));
    }
  }

  /** Milliseconds before new pods may be created; 0 when they may be now. */
  remainingMs(jobUid: string, now: number): number {
    return this.backoff.remainingSinceUpdate(jobUid, now);
  }

  forget(jobUid: string): void {
    this.backoff.reset(jobUid);
    this.counted.delete(jobUid);
  }
}

/** When the pod's last container stopped; `fallback` (now) when it never ran or is being deleted. */
function finishedAt(pod: Readonly<Pod>, fallback: number): number {
  const statuses = pod.status?.containerStatuses ?? [];
  let latest = 0;
  for (const s of statuses) latest = Math.max(latest, Date.parse(s.state?.terminated?.finishedAt ?? '') || 0);
  return latest > 0 && latest <= fallback ? latest : fallback;
}
