// The RollingUpdate strategy: grow the new set within maxSurge, shrink the old ones while at
// least replicas − maxUnavailable pods stay available, one resize per pass.
import type { ReplicaSet } from '../replicaset/types.js';
import { desiredReplicas, filterActive, maxUnavailable, newReplicaSetReplicas, specReplicas, sumSpecReplicas, sumStatus, byCreation } from './replica-math.js';
import { deploymentComplete } from './status.js';
import type { DeploymentSync } from './sync.js';
import type { DeploymentStatus } from './types.js';

export async function rolloutRolling(s: DeploymentSync): Promise<DeploymentStatus> {
  const { newRS: found, oldRSs } = await s.getAllReplicaSetsAndSyncRevision(true);
  const newRS = found!;
  const allRSs = [...oldRSs, newRS];
  if (await reconcileNewReplicaSet(s, allRSs, newRS)) return s.syncRolloutStatus(allRSs, newRS);
  if (await reconcileOldReplicaSets(s, allRSs, filterActive(oldRSs), newRS)) return s.syncRolloutStatus(allRSs, newRS);
  if (s.d.status && deploymentComplete(s.d, s.d.status)) await s.cleanupDeployment(oldRSs);
  return s.syncRolloutStatus(allRSs, newRS);
}

/** Grows the new set as far as the surge allows (or shrinks it to the Deployment's size). */
async function reconcileNewReplicaSet(s: DeploymentSync, allRSs: readonly Readonly<ReplicaSet>[], newRS: Readonly<ReplicaSet>): Promise<boolean> {
  const desired = desiredReplicas(s.d);
  if (specReplicas(newRS) === desired) return false;
  const target = specReplicas(newRS) > desired ? desired : newReplicaSetReplicas(s.d, allRSs, newRS);
  return (await s.scaleAndRecord(newRS, target, 'new')).scaled;
}

/**
 * Shrinks old sets: first their unavailable pods (they cost no availability), then available
 * ones down to the availability floor.
 */
async function reconcileOldReplicaSets(
  s: DeploymentSync,
  allRSs: readonly Readonly<ReplicaSet>[],
  oldRSs: Readonly<ReplicaSet>[],
  newRS: Readonly<ReplicaSet>,
): Promise<boolean> {
  if (sumSpecReplicas(oldRSs) === 0) return false;
  const minAvailable = desiredReplicas(s.d) - maxUnavailable(s.d);
  const newUnavailable = specReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = sumSpecReplicas(allRSs) - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return false;
  const cleaned = await cleanupUnhealthyReplicas(s, oldRSs, maxScaledDown);
  const scaledDown = await scaleDownOldReplicaSets(s, [...cleaned.oldRSs, newRS], cleaned.oldRSs);
  return cleaned.count + scaledDown > 0;
}

/** Removes up to `limit` unavailable pods of old sets, oldest sets first. */
async function cleanupUnhealthyReplicas(
  s: DeploymentSync,
  oldRSs: Readonly<ReplicaSet>[],
  limit: number,
): Promise<{ oldRSs: Readonly<ReplicaSet>[]; count: number }> {
  const sorted = [...oldRSs].sort(byCreation);
  let total = 0;
  for (let i = 0; i < sorted.length && total < limit; i++) {
    const rs = sorted[i]!;
    const unhealthy = specReplicas(rs) - (rs.status?.availableReplicas ?? 0);
    if (specReplicas(rs) === 0 || unhealthy <= 0) continue;
    const count = Math.min(limit - total, unhealthy);
    sorted[i] = await s.scaleReplicaSet(rs, specReplicas(rs) - count, 'old');
    total += count;
  }
  return { oldRSs: sorted, count: total };
}

/** Scales old sets down while the available pods stay above replicas − maxUnavailable. */
async function scaleDownOldReplicaSets(s: DeploymentSync, allRSs: readonly Readonly<ReplicaSet>[], oldRSs: readonly Readonly<ReplicaSet>[]): Promise<number> {
  const minAvailable = desiredReplicas(s.d) - maxUnavailable(s.d);
  const available = sumStatus(allRSs, 'availableReplicas');
  if (available <= minAvailable) return 0;
  const budget = available - minAvailable;
  let total = 0;
  for (const rs of [...oldRSs].sort(byCreation)) {
    if (total >= budget) break;
    if (specReplicas(rs) === 0) continue;
    const count = Math.min(specReplicas(rs), budget - total);
    await s.scaleReplicaSet(rs, specReplicas(rs) - count, 'old');
    total += count;
  }
  return total;
}
