// The parts of apps/v1 StatefulSet the StatefulSet controller reads and writes, and the labels
// it puts on its pods. The API validated and defaulted these objects.
import type { KubeObject } from '../../api/meta.js';
import type { LabelSelectorObject } from '../../api/selectors/index.js';
import type { PodTemplateSpec } from '../../api/core/index.js';
import type { Condition } from '../replicaset/types.js';

export interface ClaimTemplate {
  metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
}

export interface StatefulSetSpec {
  replicas?: number;
  selector: LabelSelectorObject;
  template?: PodTemplateSpec;
  volumeClaimTemplates?: ClaimTemplate[];
  serviceName?: string;
  podManagementPolicy?: 'OrderedReady' | 'Parallel';
  updateStrategy?: { type?: 'RollingUpdate' | 'OnDelete'; rollingUpdate?: { partition?: number } };
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
  persistentVolumeClaimRetentionPolicy?: { whenDeleted?: 'Retain' | 'Delete'; whenScaled?: 'Retain' | 'Delete' };
  ordinals?: { start?: number };
}

export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas: number;
  currentReplicas: number;
  updatedReplicas: number;
  availableReplicas: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  conditions?: Condition[];
}

export interface StatefulSet extends KubeObject {
  spec: StatefulSetSpec;
  status?: Partial<StatefulSetStatus>;
}

/** The revision (ControllerRevision name) a pod was made from; Kubernetes' StatefulSetRevisionLabel. */
export const REVISION_LABEL = 'controller-revision-hash';
export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
/** On a StatefulSet's ControllerRevisions: the hash in their name (Kubernetes' ControllerRevisionHashLabel). */
export const REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';
