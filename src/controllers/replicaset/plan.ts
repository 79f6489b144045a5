// One pass over a ReplicaSet, decided (Kubernetes' manageReplicas): create the pods missing
// from spec.replicas or delete the ones beyond it, at most burstReplicas in a pass, and replace
// finished pods. Pure: the controller carries it out (shape/pass.ts). A creation that replaces a
// lost pod names the loss (its reschedule is recorded on the workload) and, when the template
// asks for host retain, the annotations that hold the replacement for the lost pod's node.
import type { Changes } from '../shape/pass.js';
import { hostRetainSeconds, retainAnnotations, type LostPod } from './lost-pods.js';
import { podsToDelete } from './pod-state.js';
import type { ReplicaSet } from './types.js';
import type { Pod } from '../../api/core/index.js';

export interface ReplicaSetObserved {
  rs: Readonly<ReplicaSet>;
  /** The set's pods that count towards its replicas (isPodActive). */
  active: readonly Readonly<Pod>[];
  /** The set's pods that will never run again (isPodFinished). */
  finished: readonly Readonly<Pod>[];
  /** Uids of finished pods whose deletion is under way already. */
  deletingFinished: Pick<ReadonlySet<string>, 'has'>;
  /** Losses still waiting for a replacement, oldest first. */
  losses: readonly LostPod[];
  /** Most pods created or deleted in one pass. */
  burstReplicas: number;
  now: number;
}

/** A pod to create: from the template, replacing `lost` when it names one. */
export interface Replacement {
  lost?: LostPod;
  /** Host-retain annotations (held for the lost pod's node until the deadline). */
  annotations?: Record<string, string>;
}

export interface ReplicaSetPlan extends Changes<Replacement, Pod> {
  /** Finished pods to delete; not counted by expectations (they count towards no replica). */
  finished: Readonly<Pod>[];
}

export function planReplicaSet(observed: ReplicaSetObserved): ReplicaSetPlan {
  const { rs, active, burstReplicas } = observed;
  const finished = observed.finished.filter((pod) => !observed.deletingFinished.has(pod.metadata.uid ?? ''));
  const diff = active.length - (rs.spec.replicas ?? 1);
  if (diff > 0) return { finished, creations: [], deletions: podsToDelete(active, Math.min(diff, burstReplicas)) };
  if (diff === 0) return { finished, creations: [], deletions: [] };
  const retainSeconds = hostRetainSeconds(rs.spec.template);
  const creations = Array.from({ length: Math.min(-diff, burstReplicas) }, (_, i): Replacement => {
    const lost = observed.losses[i];
    if (!lost) return {};
    const annotations = retainSeconds === undefined ? undefined : retainAnnotations(lost, retainSeconds, observed.now);
    return annotations ? { lost, annotations } : { lost };
  });
  return { finished, creations, deletions: [] };
}
