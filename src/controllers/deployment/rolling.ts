// The RollingUpdate strategy: grow the new set within maxSurge, shrink the old ones while at
// least replicas − maxUnavailable pods stay available, one resize per pass. planRollingStep
// decides a pass's resizes from the sets the cache shows (pure); rolloutRolling carries them out.
import type { ReplicaSet } from '../replicaset/types.js';
import { desiredReplicas, filterActive, maxUnavailable, newReplicaSetReplicas, specReplicas, sumSpecReplicas, sumStatus, byCreation } from './replica-math.js';
import { deploymentComplete } from './status.js';
import type { ScaleStep } from './scale-plan.js';
import type { DeploymentSync } from './sync.js';
import type { Deployment, DeploymentStatus } from './types.js';

export async function rolloutRolling(s: DeploymentSync): Promise<DeploymentStatus> {
  const { newRS: found, oldRSs } = await s.getAllReplicaSetsAndSyncRevision(true);
  const newRS = found!;
  const allRSs = [...oldRSs, newRS];
  const steps = planRollingStep(s.d, newRS, oldRSs);
  if (steps.length > 0) {
    await s.resize(steps);
    return s.syncRolloutStatus(allRSs, newRS);
  }
  if (s.d.status && deploymentComplete(s.d, s.d.status)) await s.cleanupDeployment(oldRSs);
  return s.syncRolloutStatus(allRSs, newRS);
}

/** A pass's resizes: the new set's when it has one to make, else the old sets'. */
export function planRollingStep(d: Readonly<Deployment>, newRS: Readonly<ReplicaSet>, oldRSs: readonly Readonly<ReplicaSet>[]): ScaleStep[] {
  const allRSs = [...oldRSs, newRS];
  const grow = reconcileNewReplicaSet(d, allRSs, newRS);
  return grow ? [grow] : reconcileOldReplicaSets(d, allRSs, filterActive(oldRSs), newRS);
}

/** Grows the new set as far as the surge allows (or shrinks it to the Deployment's size). */
function reconcileNewReplicaSet(d: Readonly<Deployment>, allRSs: readonly Readonly<ReplicaSet>[], newRS: Readonly<ReplicaSet>): ScaleStep | undefined {
  const desired = desiredReplicas(d);
  if (specReplicas(newRS) === desired) return undefined;
  const target = specReplicas(newRS) > desired ? desired : newReplicaSetReplicas(d, allRSs, newRS);
  return target === specReplicas(newRS) ? undefined : { rs: newRS, to: target };
}

/**
 * Shrinks old sets: first their unavailable pods (they cost no availability), then available
 * ones down to the availability floor.
 */
function reconcileOldReplicaSets(
  d: Readonly<Deployment>,
  allRSs: readonly Readonly<ReplicaSet>[],
  oldRSs: readonly Readonly<ReplicaSet>[],
  newRS: Readonly<ReplicaSet>,
): ScaleStep[] {
  if (sumSpecReplicas(oldRSs) === 0) return [];
  const minAvailable = desiredReplicas(d) - maxUnavailable(d);
  const newUnavailable = specReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = sumSpecReplicas(allRSs) - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return [];
  const sorted = [...oldRSs].sort(byCreation);
  const sizes = new Map(sorted.map((rs) => [rs, specReplicas(rs)]));
  const steps = cleanupUnhealthyReplicas(sorted, sizes, maxScaledDown);
  // The floor counts the active old sets and the new one (a set scaled to 0 may still report available pods).
  return [...steps, ...scaleDownOldReplicaSets(d, [...sorted, newRS], sorted, sizes)];
}

/** Removes up to `limit` unavailable pods of old sets, oldest sets first; `sizes` learns the new sizes. */
function cleanupUnhealthyReplicas(sorted: readonly Readonly<ReplicaSet>[], sizes: Map<Readonly<ReplicaSet>, number>, limit: number): ScaleStep[] {
  const steps: ScaleStep[] = [];
  let total = 0;
  for (let i = 0; i < sorted.length && total < limit; i++) {
    const rs = sorted[i]!;
    const unhealthy = specReplicas(rs) - (rs.status?.availableReplicas ?? 0);
    if (specReplicas(rs) === 0 || unhealthy <= 0) continue;
    const count = Math.min(limit - total, unhealthy);
    steps.push({ rs, to: specReplicas(rs) - count });
    sizes.set(rs, specReplicas(rs) - count);
    total += count;
  }
  return steps;
}

/** Scales old sets (at their sizes after the clean-up) down while the available pods stay above replicas − maxUnavailable. */
function scaleDownOldReplicaSets(
  d: Readonly<Deployment>,
  counted: readonly Readonly<ReplicaSet>[],
  sorted: readonly Readonly<ReplicaSet>[],
  sizes: ReadonlyMap<Readonly<ReplicaSet>, number>,
): ScaleStep[] {
  const minAvailable = desiredReplicas(d) - maxUnavailable(d);
  const available = sumStatus(counted, 'availableReplicas');
  if (available <= minAvailable) return [];
  const budget = available - minAvailable;
  const steps: ScaleStep[] = [];
  let total = 0;
  for (const rs of sorted) {
    if (total >= budget) break;
    const size = sizes.get(rs) ?? 0;
    if (size === 0) continue;
    const count = Math.min(size, budget - total);
    steps.push({ rs, to: size - count });
    total += count;
  }
  return steps;
}
