// Counting each finished pod exactly once, with the `batch.kubernetes.io/job-tracking`
// finalizer, as the Kubernetes Job controller does:
//   1. a finished pod that still has the finalizer is recorded in
//      status.uncountedTerminatedPods (or, for a succeeded pod of an Indexed job, in
//      completedIndexes) — written before anything else;
//   2. its finalizer is removed, so it may go;
//   3. uids whose pod no longer has the finalizer move from uncountedTerminatedPods to the
//      succeeded/failed counters.
// A crash between any two steps repeats only idempotent work; a pod deleted meanwhile is still
// held by its finalizer until step 2, so it is counted even if it never reached a final phase.
import { completionIndexOf, hasTrackingFinalizer, isSucceeded, type JobStatus } from './types.js';
import type { Pod } from '../../api/core/index.js';

export interface Uncounted {
  succeeded: Set<string>;
  failed: Set<string>;
}

export interface Classification {
  /** NonIndexed: succeeded pods not yet recorded. */
  newSucceeded: Readonly<Pod>[];
  /** Failed pods (or pods that count as failed) not yet recorded. */
  newFailed: Readonly<Pod>[];
  /** Indexed: newly succeeded indexes. */
  newIndexes: number[];
  /** Finished pods whose finalizer can go (once step 1 is written). */
  releasable: Readonly<Pod>[];
}

export interface ClassifyInput {
  pods: readonly Readonly<Pod>[];
  uncounted: Readonly<Uncounted>;
  /** Pods whose finalizer this controller removed and the cache may not show yet. */
  released: ReadonlySet<string>;
  /** Indexed jobs: completions and the indexes already recorded. */
  indexed?: { completions: number; succeeded: ReadonlySet<number> };
  /** The job is finished: every pod not succeeded counts as failed. */
  jobFinished: boolean;
}

export function uncountedOf(status: Readonly<JobStatus> | undefined): Uncounted {
  return {
    succeeded: new Set(status?.uncountedTerminatedPods?.succeeded ?? []),
    failed: new Set(status?.uncountedTerminatedPods?.failed ?? []),
  };
}

/** A pod that is not succeeded counts as failed once it failed or is being deleted (podReplacementPolicy TerminatingOrFailed). */
function countsAsFailed(pod: Readonly<Pod>, jobFinished: boolean): boolean {
  return pod.status?.phase === 'Failed' || pod.metadata.deletionTimestamp !== undefined || jobFinished;
}

export function classify(input: ClassifyInput): Classification {
  const out: Classification = { newSucceeded: [], newFailed: [], newIndexes: [], releasable: [] };
  const { uncounted, indexed } = input;
  for (const pod of input.pods) {
    const uid = pod.metadata.uid!;
    if (!hasTrackingFinalizer(pod) || input.released.has(uid)) continue;
    if (isSucceeded(pod) && !uncounted.failed.has(uid)) {
      if (indexed) {
        const index = completionIndexOf(pod);
        // The index alone keeps a succeeded pod from counting twice: no uid to remember.
        if (index !== undefined && index < indexed.completions && !indexed.succeeded.has(index) && !out.newIndexes.includes(index)) out.newIndexes.push(index);
      } else if (!uncounted.succeeded.has(uid)) out.newSucceeded.push(pod);
      out.releasable.push(pod);
    } else if (uncounted.failed.has(uid) || uncounted.succeeded.has(uid)) {
      out.releasable.push(pod);
    } else if (countsAsFailed(pod, input.jobFinished)) {
      const index = indexed ? completionIndexOf(pod) : undefined;
      if (!indexed || (index !== undefined && index < indexed.completions)) out.newFailed.push(pod);
      out.releasable.push(pod);
    }
  }
  return out;
}

/** Step 1: the status that records the new outcomes before any finalizer goes. */
export function recordUncounted(status: JobStatus, uncounted: Uncounted, classification: Classification): boolean {
  for (const pod of classification.newSucceeded) uncounted.succeeded.add(pod.metadata.uid!);
  for (const pod of classification.newFailed) uncounted.failed.add(pod.metadata.uid!);
  status.uncountedTerminatedPods = uncountedField(uncounted);
  return classification.newSucceeded.length > 0 || classification.newFailed.length > 0 || classification.newIndexes.length > 0;
}

/**
 * Step 3: moves every uid whose pod no longer holds the finalizer into the counters. `holds`
 * tells whether the pod of a uid may still have it. Returns how many uids are still uncounted.
 */
export function flushUncounted(status: JobStatus, uncounted: Uncounted, holds: (uid: string) => boolean): number {
  for (const uid of [...uncounted.succeeded]) {
    if (holds(uid)) continue;
    uncounted.succeeded.delete(uid);
    status.succeeded = (status.succeeded ?? 0) + 1;
  }
  for (const uid of [...uncounted.failed]) {
    if (holds(uid)) continue;
    uncounted.failed.delete(uid);
    status.failed = (status.failed ?? 0) + 1;
  }
  status.uncountedTerminatedPods = uncountedField(uncounted);
  return uncounted.succeeded.size + uncounted.failed.size;
}

/** As Kubernetes writes it: empty lists left out, so an idle Job shows `uncountedTerminatedPods: {}`. */
function uncountedField(uncounted: Uncounted): NonNullable<JobStatus['uncountedTerminatedPods']> {
  const field: NonNullable<JobStatus['uncountedTerminatedPods']> = {};
  if (uncounted.succeeded.size > 0) field.succeeded = [...uncounted.succeeded].sort();
  if (uncounted.failed.size > 0) field.failed = [...uncounted.failed].sort();
  return field;
}
