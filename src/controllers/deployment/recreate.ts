// The Recreate strategy: every old pod is gone before the new set is scaled up.
import type { ReplicaSet } from '../replicaset/types.js';
import { desiredReplicas, filterActive, sumStatus } from './replica-math.js';
import { deploymentComplete } from './status.js';
import type { DeploymentSync } from './sync.js';
import type { DeploymentStatus } from './types.js';

export async function rolloutRecreate(s: DeploymentSync): Promise<DeploymentStatus> {
  let { newRS, oldRSs } = await s.getAllReplicaSetsAndSyncRevision(false);
  let scaledDown = false;
  for (const rs of filterActive(oldRSs)) {
    const result = await s.scaleAndRecord(rs, 0, 'old');
    if (result.scaled) {
      scaledDown = true;
      oldRSs = oldRSs.map((old) => (old === rs ? result.rs : old));
    }
  }
  if (scaledDown || oldPodsRunning(s, newRS, oldRSs)) return s.syncRolloutStatus([...oldRSs, newRS], newRS);
  if (!newRS) ({ newRS, oldRSs } = await s.getAllReplicaSetsAndSyncRevision(true));
  await s.scaleAndRecord(newRS!, desiredReplicas(s.d), 'new');
  if (s.d.status && deploymentComplete(s.d, s.d.status)) await s.cleanupDeployment(oldRSs);
  return s.syncRolloutStatus([...oldRSs, newRS], newRS);
}

/** Any pod of an old set that is not finished — terminating ones included — still runs. */
function oldPodsRunning(s: DeploymentSync, newRS: Readonly<ReplicaSet> | undefined, oldRSs: readonly Readonly<ReplicaSet>[]): boolean {
  if (sumStatus(oldRSs, 'replicas') > 0) return true;
  for (const rs of oldRSs) {
    if (rs.metadata.uid === newRS?.metadata.uid) continue;
    for (const pod of s.podsOf(rs)) {
      const phase = pod.status?.phase;
      if (phase !== 'Failed' && phase !== 'Succeeded') return true;
    }
  }
  return false;
}
