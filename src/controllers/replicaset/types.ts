// The parts of apps/v1 ReplicaSet the workload controllers read and write (pods: src/api/core).
// Objects come from the API, which validated and defaulted them, so their shape is trusted.
import type { KubeObject, ObjectMeta, OwnerReference } from '../../api/meta.js';
import type { LabelSelectorObject } from '../../api/selectors/index.js';
import type { PodTemplateSpec } from '../../api/core/index.js';

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastUpdateTime?: string;
}

export interface ReplicaSetStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: Condition[];
}

export interface ReplicaSet extends KubeObject {
  spec: {
    replicas?: number;
    minReadySeconds?: number;
    selector: LabelSelectorObject;
    template?: PodTemplateSpec;
  };
  status?: ReplicaSetStatus;
}

/** The owner reference with controller: true, if any. */
export function controllerRefOf(object: Readonly<KubeObject>): Readonly<OwnerReference> | undefined {
  return object.metadata.ownerReferences?.find((ref) => ref.controller === true);
}

/** The controller reference a controller puts on the objects it creates. */
export function newControllerRef(owner: Readonly<KubeObject>): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** A stand-in for an owner known only by its reference (transactions and events need no more). */
export function objectFromRef(ref: Readonly<OwnerReference>, namespace: string | undefined): KubeObject {
  const metadata: ObjectMeta = { name: ref.name, uid: ref.uid };
  if (namespace !== undefined) metadata.namespace = namespace;
  return { apiVersion: ref.apiVersion, kind: ref.kind, metadata };
}
