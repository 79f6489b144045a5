// The arithmetic of a rollout, as Kubernetes' deployment utilities define it: surge and
// unavailability limits, how far the new set may grow, and proportional scaling.
import type { ReplicaSet } from '../replicaset/types.js';
import { MAX_REPLICAS_ANNOTATION, type Deployment, type IntOrPercent } from './types.js';

/** An int, or a percentage of `total` rounded up (surge) or down (unavailability). */
export function scaledValue(value: IntOrPercent | undefined, total: number, roundUp: boolean): number {
  if (value === undefined) return 0;
  if (typeof value === 'number') return value;
  const match = /^(\d+)%$/.exec(value.trim());
  if (!match) {
    const plain = Number(value);
    if (Number.isInteger(plain)) return plain;
    throw new Error(`invalid value for IntOrString: ${JSON.stringify(value)}`);
  }
  const scaled = (Number(match[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/** maxSurge and maxUnavailable for `desired` replicas; never both 0 (unavailability becomes 1). */
export function resolveFenceposts(
  maxSurge: IntOrPercent | undefined,
  maxUnavailable: IntOrPercent | undefined,
  desired: number,
): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge, desired, true);
  let unavailable = scaledValue(maxUnavailable, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export const desiredReplicas = (d: Readonly<Deployment>): number => d.spec.replicas ?? 1;
export const isRollingUpdate = (d: Readonly<Deployment>): boolean => (d.spec.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';

export function maxSurge(d: Readonly<Deployment>): number {
  if (!isRollingUpdate(d)) return 0;
  const rolling = d.spec.strategy?.rollingUpdate;
  return resolveFenceposts(rolling?.maxSurge ?? '25%', rolling?.maxUnavailable ?? '25%', desiredReplicas(d)).surge;
}

export function maxUnavailable(d: Readonly<Deployment>): number {
  const desired = desiredReplicas(d);
  if (!isRollingUpdate(d) || desired === 0) return 0;
  const rolling = d.spec.strategy?.rollingUpdate;
  const { unavailable } = resolveFenceposts(rolling?.maxSurge ?? '25%', rolling?.maxUnavailable ?? '25%', desired);
  return Math.min(unavailable, desired);
}

export const specReplicas = (rs: Readonly<ReplicaSet> | undefined): number => (rs ? (rs.spec.replicas ?? 1) : 0);

export function sumSpecReplicas(sets: readonly (Readonly<ReplicaSet> | undefined)[]): number {
  return sets.reduce((sum, rs) => sum + specReplicas(rs), 0);
}

export function sumStatus(sets: readonly (Readonly<ReplicaSet> | undefined)[], field: 'replicas' | 'readyReplicas' | 'availableReplicas'): number {
  return sets.reduce((sum, rs) => sum + (rs?.status?.[field] ?? 0), 0);
}

export function filterActive<T extends Readonly<ReplicaSet>>(sets: readonly (T | undefined)[]): T[] {
  return sets.filter((rs): rs is T => rs !== undefined && specReplicas(rs) > 0);
}

/** How many replicas the new set should have now (rolling: within the surge; recreate: all). */
export function newReplicaSetReplicas(d: Readonly<Deployment>, allSets: readonly (Readonly<ReplicaSet> | undefined)[], newRS: Readonly<ReplicaSet>): number {
  const desired = desiredReplicas(d);
  if (!isRollingUpdate(d)) return desired;
  const current = sumSpecReplicas(allSets);
  const maxTotal = desired + maxSurge(d);
  if (current >= maxTotal) return specReplicas(newRS);
  const scaleUp = Math.min(maxTotal - current, desired - specReplicas(newRS));
  return specReplicas(newRS) + scaleUp;
}

/** Go's math.Round: halves away from zero. */
function roundHalfAway(value: number): number {
  return value < 0 ? -Math.round(-value) : Math.round(value);
}

function maxReplicasAnnotation(rs: Readonly<ReplicaSet>): number | undefined {
  const value = rs.metadata.annotations?.[MAX_REPLICAS_ANNOTATION];
  if (value === undefined) return undefined;
  const parsed = Number(value);
  return Number.isInteger(parsed) ? parsed : undefined;
}

/** The change of the set's size that keeps it proportional to the Deployment's new size. */
function replicaSetFraction(rs: Readonly<ReplicaSet>, d: Readonly<Deployment>): number {
  if (desiredReplicas(d) === 0) return -specReplicas(rs);
  const deploymentReplicas = desiredReplicas(d) + maxSurge(d);
  const annotated = maxReplicasAnnotation(rs) ?? d.status?.replicas ?? 0;
  if (annotated === 0) return 0;
  const newSize = (specReplicas(rs) * deploymentReplicas) / annotated;
  return roundHalfAway(newSize) - specReplicas(rs);
}

/** The share of `toAdd` (which may be negative) that falls to this set. */
export function proportion(rs: Readonly<ReplicaSet>, d: Readonly<Deployment>, toAdd: number, added: number): number {
  if (specReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = replicaSetFraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

const created = (rs: Readonly<ReplicaSet>) => Date.parse(rs.metadata.creationTimestamp ?? '') || 0;

/** Oldest first (then by name), as ReplicaSetsByCreationTimestamp. */
export function byCreation(a: Readonly<ReplicaSet>, b: Readonly<ReplicaSet>): number {
  const diff = created(a) - created(b);
  return diff !== 0 ? diff : (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
}

/** Larger first; of equal size the newer (scaling up) or the older (scaling down) first. */
export function bySize(newerFirst: boolean) {
  return (a: Readonly<ReplicaSet>, b: Readonly<ReplicaSet>): number => {
    const diff = specReplicas(b) - specReplicas(a);
    if (diff !== 0) return diff;
    return newerFirst ? byCreation(b, a) : byCreation(a, b);
  };
}

/**
 * The new size of every active set when the Deployment's size changed in the middle of a
 * rollout: the difference is spread in proportion to the sets' sizes, the rest (from
 * rounding) going to the largest.
 */
export function proportionalSizes(d: Readonly<Deployment>, active: readonly Readonly<ReplicaSet>[]): Map<Readonly<ReplicaSet>, number> {
  const allowedSize = desiredReplicas(d) > 0 ? desiredReplicas(d) + maxSurge(d) : 0;
  const toAdd = allowedSize - sumSpecReplicas(active);
  const sets = [...active];
  if (toAdd > 0) sets.sort(bySize(true));
  else if (toAdd < 0) sets.sort(bySize(false));
  const sizes = new Map<Readonly<ReplicaSet>, number>();
  let added = 0;
  for (const rs of sets) {
    if (toAdd === 0) {
      sizes.set(rs, specReplicas(rs));
      continue;
    }
    const share = proportion(rs, d, toAdd, added);
    sizes.set(rs, specReplicas(rs) + share);
    added += share;
  }
  const largest = sets[0];
  if (toAdd !== 0 && largest) sizes.set(largest, Math.max(0, (sizes.get(largest) ?? 0) + toAdd - added));
  return sizes;
}
