// Revisions: every ReplicaSet of a Deployment carries the revision it was last rolled out at
// (`deployment.kubernetes.io/revision`), the earlier ones of a set rolled back to
// (`.../revision-history`), and copies of the Deployment's annotations (so `kubectl rollout
// history` finds `kubernetes.io/change-cause` on it, and `rollout undo` restores them).
import { ANNOTATION_CHANGED_BY } from '../../api/transaction-operations.js';
import type { ReplicaSet } from '../replicaset/types.js';
import { equalIgnoreHash } from './hash.js';
import { byCreation } from './replica-math.js';
import {
  DESIRED_REPLICAS_ANNOTATION,
  LAST_APPLIED_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  ROLLBACK_TO_ANNOTATION,
  type Deployment,
} from './types.js';

/** Longest revision-history annotation kept, in characters. */
const MAX_REVISION_HISTORY_CHARS = 2000;

// changed-by is the server's own, per object: a copy would be overwritten, and copied again forever.
const NOT_COPIED: ReadonlySet<string> = new Set([
  ANNOTATION_CHANGED_BY,
  LAST_APPLIED_ANNOTATION,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  ROLLBACK_TO_ANNOTATION,
]);

export function revisionOf(rs: Readonly<ReplicaSet> | undefined): number {
  const value = Number(rs?.metadata.annotations?.[REVISION_ANNOTATION] ?? 0);
  return Number.isInteger(value) && value > 0 ? value : 0;
}

export function maxRevision(sets: readonly Readonly<ReplicaSet>[]): number {
  return sets.reduce((max, rs) => Math.max(max, revisionOf(rs)), 0);
}

/** By revision, then age: the order in which old sets are cleaned up. */
export function byRevision(a: Readonly<ReplicaSet>, b: Readonly<ReplicaSet>): number {
  return revisionOf(a) - revisionOf(b) || byCreation(a, b);
}

/** The oldest set whose template is the Deployment's; the others are old. */
export function splitNewAndOld(
  d: Readonly<Deployment>,
  sets: readonly Readonly<ReplicaSet>[],
): { newRS: Readonly<ReplicaSet> | undefined; oldRSs: Readonly<ReplicaSet>[] } {
  const sorted = [...sets].sort(byCreation);
  const newRS = sorted.find((rs) => equalIgnoreHash(rs.spec.template, d.spec.template));
  return { newRS, oldRSs: sorted.filter((rs) => rs !== newRS) };
}

/** Copies the Deployment's own annotations onto the set; true when something changed. */
function copyDeploymentAnnotations(d: Readonly<Deployment>, rs: ReplicaSet): boolean {
  let changed = false;
  const annotations = (rs.metadata.annotations ??= {});
  for (const [key, value] of Object.entries(d.metadata.annotations ?? {})) {
    if (NOT_COPIED.has(key) || annotations[key] === value) continue;
    annotations[key] = value;
    changed = true;
  }
  return changed;
}

/** Records desired and max (desired + surge) replicas on the set; true when they changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  const annotations = (rs.metadata.annotations ??= {});
  if (annotations[DESIRED_REPLICAS_ANNOTATION] === String(desired) && annotations[MAX_REPLICAS_ANNOTATION] === String(max)) return false;
  annotations[DESIRED_REPLICAS_ANNOTATION] = String(desired);
  annotations[MAX_REPLICAS_ANNOTATION] = String(max);
  return true;
}

/**
 * Brings the new set's annotations up to date: the Deployment's annotations, the new revision
 * (keeping the one it had in the revision history when it is rolled back to), and — for a set
 * about to be created — the replica annotations. True when anything changed.
 */
export function setNewReplicaSetAnnotations(
  d: Readonly<Deployment>,
  rs: ReplicaSet,
  newRevision: number,
  exists: boolean,
  desired: number,
  max: number,
): boolean {
  let changed = copyDeploymentAnnotations(d, rs);
  const annotations = (rs.metadata.annotations ??= {});
  const oldText = annotations[REVISION_ANNOTATION];
  const oldRevision = oldText === undefined ? 0 : Number(oldText);
  if (!Number.isInteger(oldRevision)) return changed;
  if (oldRevision < newRevision) {
    annotations[REVISION_ANNOTATION] = String(newRevision);
    changed = true;
    if (oldText !== undefined && oldRevision > 0) {
      const history = annotations[REVISION_HISTORY_ANNOTATION];
      let next = history ? `${history},${oldText}` : oldText;
      while (next.length > MAX_REVISION_HISTORY_CHARS && next.includes(',')) next = next.slice(next.indexOf(',') + 1);
      annotations[REVISION_HISTORY_ANNOTATION] = next;
    }
  }
  if (!exists && setReplicasAnnotations(rs, desired, max)) changed = true;
  return changed;
}
