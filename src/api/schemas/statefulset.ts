// apps/v1 StatefulSet and ControllerRevision: pods with stable names, ordinals and claims, and
// the immutable snapshots of a controller's template that rollout history and undo read.
import { Type } from '@sinclair/typebox';
import { enumStr, field, int32, int64, intOrString, list, named, str, struct } from './builders.js';
import { workloadCondition } from './apps.js';
import { LabelSelector, ObjectMeta, RawExtension, conditionList, kindSchema, typeMetaFields } from './meta.js';
import { PodTemplateSpec } from './pod.js';
import { PersistentVolumeClaimSpec } from './volume.js';

const APPS = 'io.k8s.api.apps.v1';

export const POD_MANAGEMENT_POLICIES = ['OrderedReady', 'Parallel'] as const;
export const STATEFUL_SET_UPDATE_STRATEGIES = ['RollingUpdate', 'OnDelete'] as const;
export const CLAIM_RETENTION_POLICIES = ['Retain', 'Delete'] as const;

/**
 * A claim template: a PersistentVolumeClaim as a StatefulSet holds it. Left unnamed (inline) so
 * that the PersistentVolumeClaim kind, once served, owns the io.k8s.api.core.v1 name.
 */
const ClaimTemplate = struct('A PersistentVolumeClaim template: each pod gets a claim named <template>-<statefulset>-<ordinal>.', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, "Name (required: it names the pods' volume) and labels of the claims."),
  spec: field(PersistentVolumeClaimSpec, 'Specification of each claim.'),
  status: field(Type.Unsafe({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }), 'Ignored in a template (defaulted to phase Pending).'),
});

const RollingUpdateStatefulSetStrategy = named(
  `${APPS}.RollingUpdateStatefulSetStrategy`,
  struct('Parameters of a StatefulSet rolling update.', {
    partition: int32('Ordinals at or above the partition are updated; those below keep their revision (and are recreated at it). Defaults to 0.'),
    maxUnavailable: intOrString(
      'Most pods that may be unavailable during the update (a number or a percentage of replicas). Alpha in Kubernetes (MaxUnavailableStatefulSet); Drover updates one pod at a time.',
    ),
  }),
);

const StatefulSetUpdateStrategy = named(
  `${APPS}.StatefulSetUpdateStrategy`,
  struct('How a StatefulSet replaces its pods when the template changes.', {
    type: enumStr(
      'RollingUpdate (the default: replace pods from the highest ordinal down) or OnDelete (replace a pod only when it is deleted).',
      STATEFUL_SET_UPDATE_STRATEGIES,
    ),
    rollingUpdate: field(RollingUpdateStatefulSetStrategy, 'Parameters of a rolling update; only with type RollingUpdate.'),
  }),
);

const RetentionPolicy = named(
  `${APPS}.StatefulSetPersistentVolumeClaimRetentionPolicy`,
  struct('What happens to the claims of volumeClaimTemplates.', {
    whenDeleted: enumStr('When the StatefulSet is deleted: Retain (the default) keeps the claims, Delete deletes them.', CLAIM_RETENTION_POLICIES),
    whenScaled: enumStr('When a scale-down removes a pod: Retain (the default) keeps its claims, Delete deletes them.', CLAIM_RETENTION_POLICIES),
  }),
);

const StatefulSetSpec = named(
  `${APPS}.StatefulSetSpec`,
  struct(
    'Desired behaviour of a StatefulSet.',
    {
      replicas: int32('Number of desired pods. Defaults to 1.', { minimum: 0 }),
      selector: field(
        LabelSelector,
        "Label query over the pods the StatefulSet manages. Must match the pod template's labels. Cannot be changed after creation.",
      ),
      template: field(PodTemplateSpec, 'Template of the pods. Each pod is named <statefulset>-<ordinal>. Its restartPolicy must be Always.'),
      volumeClaimTemplates: list("Claims each pod gets, created before the pod and mounted by the template's volumeMounts of the same name.", ClaimTemplate, {
        'x-kubernetes-list-type': 'atomic',
      }),
      serviceName: str('Name of the (headless) Service that governs the set: pods get <pod>.<serviceName>.<namespace>.svc.<cluster-domain> names.'),
      podManagementPolicy: enumStr(
        'OrderedReady (the default: create pods in ordinal order, each Running and Ready before the next; remove in reverse order) or Parallel (create and remove all at once).',
        POD_MANAGEMENT_POLICIES,
      ),
      // Unlike a Deployment's strategy, Kubernetes marks no retainKeys here: switching to OnDelete must clear rollingUpdate too.
      updateStrategy: field(StatefulSetUpdateStrategy, 'How pods are replaced when the template changes.'),
      revisionHistoryLimit: int32('Number of ControllerRevisions kept for rollback. Defaults to 10.'),
      minReadySeconds: int32('Seconds a new pod must be ready, with no container crashing, to count as available. Defaults to 0.', { minimum: 0 }),
      persistentVolumeClaimRetentionPolicy: field(
        RetentionPolicy,
        'What happens to the claims when the StatefulSet is deleted or scaled down. Defaults to Retain for both.',
      ),
      ordinals: field(
        named(
          `${APPS}.StatefulSetOrdinals`,
          struct('Where the ordinals of the pods start.', {
            start: int32('The first ordinal: pods are numbered start .. start+replicas-1. Defaults to 0.'),
          }),
        ),
        'The numbering of the pods.',
      ),
    },
    ['selector', 'template'],
  ),
);

const StatefulSetStatus = named(
  `${APPS}.StatefulSetStatus`,
  struct(
    'Most recently observed state of a StatefulSet.',
    {
      observedGeneration: int64('Generation observed by the controller.'),
      replicas: int32('Number of pods the controller created.'),
      readyReplicas: int32('Number of pods with a Ready condition.'),
      currentReplicas: int32('Number of pods at currentRevision.'),
      updatedReplicas: int32('Number of pods at updateRevision.'),
      currentRevision: str("The revision (ControllerRevision name) of the pods ordinals below the partition keep: the last completed rollout's."),
      updateRevision: str('The revision (ControllerRevision name) of the current template.'),
      collisionCount: int32('Count of hash collisions of the revisions, used to name new ones.'),
      conditions: conditionList("Latest observations of the StatefulSet's state.", workloadCondition('StatefulSet', 'any')),
      availableReplicas: int32('Number of pods ready for at least minReadySeconds.'),
    },
    ['replicas'],
  ),
);

export const StatefulSetSchema = kindSchema(
  { group: 'apps', version: 'v1', kind: 'StatefulSet' },
  'Runs pods with stable identities: names <statefulset>-<ordinal>, stable DNS names through a headless Service, and per-pod claims, created, removed and updated in ordinal order.',
  {
    spec: field(StatefulSetSpec, 'Specification of the desired behaviour of the StatefulSet.'),
    status: field(StatefulSetStatus, 'Most recently observed status of the StatefulSet. Read-only.'),
  },
);

export const ControllerRevisionSchema = kindSchema(
  { group: 'apps', version: 'v1', kind: 'ControllerRevision' },
  "An immutable snapshot of state data of a controller (a DaemonSet's or StatefulSet's template), kept for rollout history and rollback.",
  {
    data: field(RawExtension, 'The state data: for DaemonSets and StatefulSets a strategic merge patch that restores spec.template. Immutable.'),
    revision: int64('The revision number of the state the data represents. Increases with each new revision.'),
  },
  ['revision'],
);
