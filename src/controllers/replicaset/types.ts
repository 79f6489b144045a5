// The parts of apps/v1 ReplicaSet and core/v1 Pod the workload controllers read and write.
// Objects come from the API, which validated and defaulted them, so their shape is trusted.
import type { KubeObject, ObjectMeta, OwnerReference } from '../../api/meta.js';
import type { LabelSelectorObject } from '../../api/selectors/index.js';

export interface PodTemplate {
  metadata?: Pick<ObjectMeta, 'labels' | 'annotations' | 'finalizers'> & Record<string, unknown>;
  spec?: Record<string, unknown> & { restartPolicy?: string };
}

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
    template?: PodTemplate;
  };
  status?: ReplicaSetStatus;
}

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

export interface PodCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
}

export interface Pod extends KubeObject {
  spec?: { nodeName?: string; restartPolicy?: string } & Record<string, unknown>;
  status?: {
    phase?: PodPhase;
    conditions?: PodCondition[];
    containerStatuses?: Array<{ restartCount?: number }>;
  };
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
