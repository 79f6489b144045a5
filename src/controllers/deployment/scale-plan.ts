// The resizes of a pass that scales without rolling out (a paused Deployment, or one whose size
// changed), as Kubernetes' sync.go scale() decides them: one active set takes the Deployment's
// size; a saturated new set lets the old ones go to zero; several active sets mid-rollout share
// the change in proportion to their sizes (replica-math.ts proportionalSizes). Pure: the sets
// come from the cache, the resizes are carried out by DeploymentSync.resize. A size changed is
// read from the sets (scalingEventFrom), by the reconcile and by the Transactions' observer.
import type { ReplicaSet } from '../replicaset/types.js';
import { desiredReplicas, filterActive, isRollingUpdate, proportionalSizes, specReplicas } from './replica-math.js';
import { splitNewAndOld } from './revisions.js';
import { DESIRED_REPLICAS_ANNOTATION, type Deployment } from './types.js';

/** One resize of a pass; a set may be resized twice (its unavailable pods first, then down to the floor). */
export interface ScaleStep {
  rs: Readonly<ReplicaSet>;
  to: number;
}

/** The Deployment size the set was last scaled for (its desired-replicas annotation), when it has one. */
export function scaledFor(rs: Readonly<ReplicaSet>): number | undefined {
  const text = rs.metadata.annotations?.[DESIRED_REPLICAS_ANNOTATION];
  const value = Number(text);
  return text !== undefined && Number.isInteger(value) ? value : undefined;
}

/**
 * A scaling event (Kubernetes' isScalingEvent): an active set was last scaled for another size
 * than spec.replicas. Returns that size; undefined when there is none.
 */
export function scalingEventFrom(d: Readonly<Deployment>, sets: readonly Readonly<ReplicaSet>[]): number | undefined {
  const { newRS, oldRSs } = splitNewAndOld(d, sets);
  for (const rs of filterActive([...oldRSs, newRS])) {
    const annotated = scaledFor(rs);
    if (annotated !== undefined && annotated !== desiredReplicas(d)) return annotated;
  }
  return undefined;
}

/**
 * The resizes of a scaling pass. A resize to the set's own size is kept: writing it brings the
 * set's desired/max replicas annotations up to date, without which the pass would look like a
 * scaling event forever.
 */
export function planScale(d: Readonly<Deployment>, newRS: Readonly<ReplicaSet> | undefined, oldRSs: readonly Readonly<ReplicaSet>[]): ScaleStep[] {
  // One active set (or none): it simply takes the Deployment's size.
  const single = activeOrLatest(newRS, oldRSs);
  if (single) return [{ rs: single, to: desiredReplicas(d) }];
  // The new set is complete: the old ones go.
  if (newRS && isSaturated(d, newRS)) return filterActive(oldRSs).map((rs) => ({ rs, to: 0 }));
  // Several active sets mid-rollout: spread the change in proportion to their sizes.
  if (!isRollingUpdate(d)) return [];
  const active = filterActive([...oldRSs, newRS]);
  const sizes = proportionalSizes(d, active);
  return active.map((rs) => ({ rs, to: sizes.get(rs) ?? specReplicas(rs) }));
}

/** The only active set; the new set (or the newest old one) when none is active; nothing when several are. */
function activeOrLatest(newRS: Readonly<ReplicaSet> | undefined, oldRSs: readonly Readonly<ReplicaSet>[]): Readonly<ReplicaSet> | undefined {
  const active = filterActive([...oldRSs, newRS]);
  if (active.length === 1) return active[0];
  if (active.length > 1) return undefined;
  if (newRS) return newRS;
  return oldRSs.length > 0
    ? [...oldRSs].sort((a, b) => (Date.parse(b.metadata.creationTimestamp ?? '') || 0) - (Date.parse(a.metadata.creationTimestamp ?? '') || 0))[0]
    : undefined;
}

/** The new set has all the Deployment's replicas, scaled for its current size, all available. */
function isSaturated(d: Readonly<Deployment>, rs: Readonly<ReplicaSet>): boolean {
  const desired = desiredReplicas(d);
  return (
    specReplicas(rs) === desired &&
    rs.metadata.annotations?.[DESIRED_REPLICAS_ANNOTATION] === String(desired) &&
    (rs.status?.availableReplicas ?? 0) === desired
  );
}
