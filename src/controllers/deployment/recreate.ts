// The Recreate strategy: every old pod is gone before the new set is scaled up. planRecreate
// decides a pass from the sets and pods the cache shows (pure); rolloutRecreate carries it out.
import type { ReplicaSet } from '../replicaset/types.js';
import { desiredReplicas, filterActive, sumStatus } from './replica-math.js';
import type { ScaleStep } from './scale-plan.js';
import { deploymentComplete } from './status.js';
import type { DeploymentSync } from './sync.js';
import type { Deployment, DeploymentStatus } from './types.js';
import type { Pod } from '../../api/core/index.js';

/** A Recreate pass: scale the old sets to zero, wait for their pods to go, or scale the new set up. */
export type RecreatePlan = { scaleDown: ScaleStep[] } | { waitForOldPods: true } | { scaleUp: number };

export async function rolloutRecreate(s: DeploymentSync): Promise<DeploymentStatus> {
  let { newRS, oldRSs } = await s.getAllReplicaSetsAndSyncRevision(false);
  const plan = planRecreate(s.d, newRS, oldRSs, (rs) => s.podsOf(rs));
  if ('scaleDown' in plan) {
    const scaled = await s.resize(plan.scaleDown);
    oldRSs = oldRSs.map((old) => scaled.get(old.metadata.uid ?? '') ?? old);
  }
  if (!('scaleUp' in plan)) return s.syncRolloutStatus([...oldRSs, newRS], newRS);
  if (!newRS) ({ newRS, oldRSs } = await s.getAllReplicaSetsAndSyncRevision(true));
  await s.scaleAndRecord(newRS!, plan.scaleUp);
  if (s.d.status && deploymentComplete(s.d, s.d.status)) await s.cleanupDeployment(oldRSs);
  return s.syncRolloutStatus([...oldRSs, newRS], newRS);
}

export function planRecreate(
  d: Readonly<Deployment>,
  newRS: Readonly<ReplicaSet> | undefined,
  oldRSs: readonly Readonly<ReplicaSet>[],
  podsOf: (rs: Readonly<ReplicaSet>) => readonly Readonly<Pod>[],
): RecreatePlan {
  const active = filterActive(oldRSs);
  if (active.length > 0) return { scaleDown: active.map((rs) => ({ rs, to: 0 })) };
  if (oldPodsRunning(newRS, oldRSs, podsOf)) return { waitForOldPods: true };
  return { scaleUp: desiredReplicas(d) };
}

/** Any pod of an old set that is not finished — terminating ones included — still runs. */
function oldPodsRunning(
  newRS: Readonly<ReplicaSet> | undefined,
  oldRSs: readonly Readonly<ReplicaSet>[],
  podsOf: (rs: Readonly<ReplicaSet>) => readonly Readonly<Pod>[],
): boolean {
  if (sumStatus(oldRSs, 'replicas') > 0) return true;
  for (const rs of oldRSs) {
    if (rs.metadata.uid === newRS?.metadata.uid) continue;
    for (const pod of podsOf(rs)) {
      const phase = pod.status?.phase;
      if (phase !== 'Failed' && phase !== 'Succeeded') return true;
    }
  }
  return false;
}
