// Slow-start batches, as Kubernetes controllers create pods: 1, then 2, 4, 8... at a time, and
// stop at the first batch with a failure, so that a request the API keeps rejecting (a quota, a
// bad template) costs one call instead of hundreds. Shared by the ReplicaSet, Job and DaemonSet controllers.

export interface SlowStartResult {
  /** Calls that succeeded. */
  succeeded: number;
  /** Items never attempted because an earlier batch failed. */
  skipped: number;
  errors: unknown[];
}

export async function slowStartBatch<T>(items: readonly T[], initialBatch: number, fn: (item: T) => Promise<void>): Promise<SlowStartResult> {
  let index = 0;
  let batch = Math.max(1, initialBatch);
  const result: SlowStartResult = { succeeded: 0, skipped: 0, errors: [] };
  while (index < items.length) {
    const slice = items.slice(index, index + batch);
    index += slice.length;
    const outcomes = await Promise.allSettled(slice.map((item) => fn(item)));
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled') result.succeeded++;
      else result.errors.push(outcome.reason);
    }
    if (result.errors.length > 0) break;
    batch *= 2;
  }
  result.skipped = items.length - index;
  return result;
}
