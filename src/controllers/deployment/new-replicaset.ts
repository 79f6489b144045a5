// The new ReplicaSet of a Deployment (the one whose template is the Deployment's), decided
// without a server as Kubernetes' getNewReplicaSet does: an existing one has its annotations
// and minReadySeconds brought up to date, or else gives the Deployment its revision; a missing
// one is built as `<deployment>-<pod-template-hash>`, the hash taking the Deployment's
// collisionCount, so that a name taken by a set that is not ours is hashed afresh next pass.
// DeploymentSync carries the plan out.
import type { ReplicaSet } from '../replicaset/types.js';
import { isControlledBy, newControllerRef } from '../../api/owner-references.js';
import { equalIgnoreHash, podTemplateHash } from './hash.js';
import { desiredReplicas, maxSurge, newReplicaSetReplicas } from './replica-math.js';
import { maxRevision, revisionOf, setNewReplicaSetAnnotations } from './revisions.js';
import { getCondition, hasProgressDeadline } from './status.js';
import { POD_TEMPLATE_HASH_LABEL, PROGRESSING, type Deployment } from './types.js';

export type NewReplicaSetPlan =
  /** No new set, and none to create in this pass. */
  | { action: 'none' }
  /** The set exists but is out of date: this copy is written (and nothing else this pass). */
  | { action: 'update'; rs: Readonly<ReplicaSet>; updated: ReplicaSet }
  /** The set is up to date: the Deployment takes its revision; `found` sets Progressing=FoundNewReplicaSet. */
  | { action: 'use'; rs: Readonly<ReplicaSet>; revision: string; found: boolean }
  /** The set to create, with its first size and annotations. */
  | { action: 'create'; rs: ReplicaSet; revision: string };

/** `create`: whether this pass may create a missing set (a rollout may; a scale or a Recreate waiting for old pods may not). */
export function planNewReplicaSet(
  d: Readonly<Deployment>,
  existing: Readonly<ReplicaSet> | undefined,
  oldRSs: readonly Readonly<ReplicaSet>[],
  create: boolean,
): NewReplicaSetPlan {
  const newRevision = maxRevision(oldRSs) + 1;
  const desired = desiredReplicas(d);
  const max = desired + maxSurge(d);
  if (existing) {
    const copy = structuredClone(existing) as ReplicaSet;
    const annotationsChanged = setNewReplicaSetAnnotations(d, copy, newRevision, true, desired, max);
    const minReady = d.spec.minReadySeconds ?? 0;
    if (annotationsChanged || (copy.spec.minReadySeconds ?? 0) !== minReady) {
      copy.spec.minReadySeconds = minReady;
      return { action: 'update', rs: existing, updated: copy };
    }
    const found = hasProgressDeadline(d) && !getCondition(d.status, PROGRESSING);
    return { action: 'use', rs: existing, revision: String(revisionOf(existing)), found };
  }
  if (!create) return { action: 'none' };
  const rs = buildNewReplicaSet(d);
  rs.spec.replicas = newReplicaSetReplicas(d, [...oldRSs, rs], rs);
  setNewReplicaSetAnnotations(d, rs, newRevision, false, desired, max);
  return { action: 'create', rs, revision: String(newRevision) };
}

/** The set for the Deployment's template at size 0, named and labelled by the pod-template-hash. */
function buildNewReplicaSet(d: Readonly<Deployment>): ReplicaSet {
  const hash = podTemplateHash(d.spec.template, d.status?.collisionCount);
  const template = structuredClone(d.spec.template);
  template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, [POD_TEMPLATE_HASH_LABEL]: hash } };
  const selector = structuredClone(d.spec.selector);
  selector.matchLabels = { ...selector.matchLabels, [POD_TEMPLATE_HASH_LABEL]: hash };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata.name ?? ''}-${hash}`,
      namespace: d.metadata.namespace ?? 'default',
      labels: { ...template.metadata.labels },
      ownerReferences: [newControllerRef(d)],
    },
    spec: { replicas: 0, minReadySeconds: d.spec.minReadySeconds ?? 0, selector, template },
  };
}

/**
 * The set that holds the new set's name, when creating it found the name taken: our own (a
 * cache that has not caught up), which is used as it is; or anything else — a hash collision.
 */
export function isOwnNewReplicaSet(d: Readonly<Deployment>, taken: Readonly<ReplicaSet> | undefined): taken is Readonly<ReplicaSet> {
  return taken !== undefined && isControlledBy(taken, d) && equalIgnoreHash(taken.spec.template, d.spec.template);
}
