// How long a Job waits before replacing failed pods (the Job controller's backoffRecord): 10 s
// after the first failure since the last success, doubling per further failure up to 10 min.
import type { Pod } from '../../api/core/index.js';

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_POD_FAILURE_BACKOFF: BackoffPolicy = { baseMs: 10_000, maxMs: 10 * 60_000 };

interface Record {
  failuresAfterLastSuccess: number;
  lastFailureMs: number;
  /** Failed pods already counted: a pass that is retried must not count them again. */
  counted: Set<string>;
}

export class FailureBackoff {
  private readonly records = new Map<string, Record>();

  constructor(private readonly policy: BackoffPolicy = DEFAULT_POD_FAILURE_BACKOFF) {}

  /** Counts the pods a pass saw finish: a success resets the record. */
  observe(jobUid: string, newSucceeded: number, newFailed: readonly Readonly<Pod>[], now: number): void {
    if (newSucceeded > 0) {
      this.records.delete(jobUid);
      return;
    }
    if (newFailed.length === 0) return;
    const record = this.records.get(jobUid) ?? { failuresAfterLastSuccess: 0, lastFailureMs: 0, counted: new Set<string>() };
    for (const pod of newFailed) {
      const uid = pod.metadata.uid ?? '';
      if (record.counted.has(uid)) continue;
      record.counted.add(uid);
      record.failuresAfterLastSuccess++;
      record.lastFailureMs = Math.max(record.lastFailureMs, finishedAt(pod, now));
    }
    this.records.set(jobUid, record);
  }

  /** Milliseconds before new pods may be created; 0 when they may be now. */
  remainingMs(jobUid: string, now: number): number {
    const record = this.records.get(jobUid);
    if (!record || record.failuresAfterLastSuccess === 0) return 0;
    let delay = this.policy.baseMs;
    for (let i = 1; i < record.failuresAfterLastSuccess && delay < this.policy.maxMs; i++) delay *= 2;
    delay = Math.min(delay, this.policy.maxMs);
    return Math.max(0, record.lastFailureMs + delay - now);
  }

  forget(jobUid: string): void {
    this.records.delete(jobUid);
  }
}

/** When the pod's last container stopped; `fallback` (now) when it never ran or is being deleted. */
function finishedAt(pod: Readonly<Pod>, fallback: number): number {
  const statuses = pod.status?.containerStatuses ?? [];
  let latest = 0;
  for (const s of statuses) latest = Math.max(latest, Date.parse(s.state?.terminated?.finishedAt ?? '') || 0);
  return latest > 0 && latest <= fallback ? latest : fallback;
}
