// apps/v1 Deployment, ReplicaSet and DaemonSet.
import { bool, field, int32, int64, intOrString, named, enumStr, str, struct, time, type Schema } from './builders.js';
import { LabelSelector, conditionList, kindSchema } from './meta.js';
import { PodTemplateSpec } from './pod.js';

const APPS = 'io.k8s.api.apps.v1';

/** A workload's condition (apps/v1's, and core/v1's ReplicationControllerCondition, which has the same fields). */
export function workloadCondition(kind: string, types: string, pkg = APPS): Schema {
  return named(
    `${pkg}.${kind}Condition`,
    struct(
      `A condition of a ${kind}.`,
      {
        type: str(`Type of the condition: ${types}.`),
        status: enumStr('True, False or Unknown.', ['True', 'False', 'Unknown']),
        ...(kind === 'Deployment' ? { lastUpdateTime: time('When the condition was last updated.') } : {}),
        lastTransitionTime: time('When the condition last changed status.'),
        reason: str('Machine-readable reason of the last transition.'),
        message: str('Human-readable details of the last transition.'),
      },
      ['type', 'status'],
    ),
  );
}

const selector = (what: string): Schema =>
  field(LabelSelector, `Label query over the pods the ${what} manages. Must match the pod template's labels. Cannot be changed after creation.`);

const RollingUpdateDeployment = named(
  `${APPS}.RollingUpdateDeployment`,
  struct('Parameters of a rolling update.', {
    maxUnavailable: intOrString(
      'Maximum number (or percentage of desired pods, rounded down) of pods that may be unavailable during the update. Cannot be 0 when maxSurge is 0. Defaults to 25%.',
    ),
    maxSurge: intOrString(
      'Maximum number (or percentage of desired pods, rounded up) of pods created above the desired count during the update. Cannot be 0 when maxUnavailable is 0. Defaults to 25%.',
    ),
  }),
);

const DeploymentStrategy = named(
  `${APPS}.DeploymentStrategy`,
  struct('How old pods are replaced by new ones.', {
    type: enumStr('Recreate (kill all old pods first) or RollingUpdate (the default; replace gradually).', ['Recreate', 'RollingUpdate']),
    rollingUpdate: field(RollingUpdateDeployment, 'Parameters of a rolling update; only with type RollingUpdate.'),
  }),
);

const DeploymentSpec = named(
  `${APPS}.DeploymentSpec`,
  struct(
    'Desired behaviour of a Deployment.',
    {
      replicas: int32('Number of desired pods. Defaults to 1. Unset lets an autoscaler own the value.', { minimum: 0 }),
      selector: selector('Deployment'),
      template: field(PodTemplateSpec, 'Template of the pods to run. Its restartPolicy must be Always.'),
      // retainKeys: switching to Recreate with kubectl's client-side apply must drop rollingUpdate, as Kubernetes marks it.
      strategy: field(DeploymentStrategy, 'How existing pods are replaced by new ones.', { 'x-kubernetes-patch-strategy': 'retainKeys' }),
      minReadySeconds: int32('Seconds a new pod must be ready, with no container crashing, to count as available. Defaults to 0.', { minimum: 0 }),
      revisionHistoryLimit: int32('Number of old ReplicaSets kept to allow rollback. Defaults to 10.', { minimum: 0 }),
      paused: bool('Whether the Deployment is paused: changes to the template do not roll out.'),
      progressDeadlineSeconds: int32(
        'Seconds the Deployment may take to make progress before it is reported as failed (condition Progressing=False, reason ProgressDeadlineExceeded). Must exceed minReadySeconds. Defaults to 600.',
        { minimum: 0 },
      ),
    },
    ['selector', 'template'],
  ),
);

const DeploymentStatus = named(
  `${APPS}.DeploymentStatus`,
  struct('Most recently observed state of a Deployment.', {
    observedGeneration: int64('Generation observed by the controller.'),
    replicas: int32('Number of pods targeted by the Deployment (their labels match the selector).'),
    updatedReplicas: int32('Number of pods running the current template.'),
    readyReplicas: int32('Number of pods with a Ready condition.'),
    availableReplicas: int32('Number of pods ready for at least minReadySeconds.'),
    unavailableReplicas: int32('Number of pods still needed for 100% availability.'),
    conditions: conditionList("Latest observations of the Deployment's state.", workloadCondition('Deployment', 'Available, Progressing or ReplicaFailure')),
    collisionCount: int32('Count of hash collisions of the pod template, used to name new ReplicaSets.'),
  }),
);

export const DeploymentSchema = kindSchema(
  { group: 'apps', version: 'v1', kind: 'Deployment' },
  'Declarative updates for pods and ReplicaSets: describes a desired state that the controller reaches at a controlled rate.',
  {
    spec: field(DeploymentSpec, 'Specification of the desired behaviour of the Deployment.'),
    status: field(DeploymentStatus, 'Most recently observed status of the Deployment. Read-only.'),
  },
);

const ReplicaSetSpec = named(
  `${APPS}.ReplicaSetSpec`,
  struct(
    'Desired behaviour of a ReplicaSet.',
    {
      replicas: int32('Number of desired pods. Defaults to 1.', { minimum: 0 }),
      minReadySeconds: int32('Seconds a new pod must be ready, with no container crashing, to count as available. Defaults to 0.', { minimum: 0 }),
      selector: selector('ReplicaSet'),
      template: field(PodTemplateSpec, 'Template of the pods created when too few exist.'),
    },
    ['selector'],
  ),
);

const ReplicaSetStatus = named(
  `${APPS}.ReplicaSetStatus`,
  struct('Most recently observed state of a ReplicaSet.', {
    replicas: int32('Most recently observed number of pods.'),
    fullyLabeledReplicas: int32("Number of pods whose labels match the template's labels."),
    readyReplicas: int32('Number of pods with a Ready condition.'),
    availableReplicas: int32('Number of pods ready for at least minReadySeconds.'),
    observedGeneration: int64('Generation observed by the controller.'),
    conditions: conditionList("Latest observations of the ReplicaSet's state.", workloadCondition('ReplicaSet', 'ReplicaFailure')),
  }),
);

export const ReplicaSetSchema = kindSchema(
  { group: 'apps', version: 'v1', kind: 'ReplicaSet' },
  'Keeps a given number of pod replicas running. Usually managed by a Deployment.',
  {
    spec: field(ReplicaSetSpec, 'Specification of the desired behaviour of the ReplicaSet.'),
    status: field(ReplicaSetStatus, 'Most recently observed status of the ReplicaSet. Read-only.'),
  },
);

const DaemonSetUpdateStrategy = named(
  `${APPS}.DaemonSetUpdateStrategy`,
  struct('How daemon pods are replaced.', {
    type: enumStr('RollingUpdate (the default) or OnDelete (new pods only when old ones are deleted by hand).', ['RollingUpdate', 'OnDelete']),
    rollingUpdate: field(
      named(
        `${APPS}.RollingUpdateDaemonSet`,
        struct('Parameters of a daemon set rolling update.', {
          maxUnavailable: intOrString('Maximum number (or percentage of nodes) of daemon pods that may be unavailable during the update. Defaults to 1.'),
          maxSurge: intOrString('Maximum number (or percentage of nodes) of nodes that may run an old and a new pod at once during the update. Defaults to 0.'),
        }),
      ),
      'Parameters of a rolling update; only with type RollingUpdate.',
    ),
  }),
);

const DaemonSetSpec = named(
  `${APPS}.DaemonSetSpec`,
  struct(
    'Desired behaviour of a DaemonSet.',
    {
      selector: selector('DaemonSet'),
      template: field(PodTemplateSpec, 'Template of the pod run on every eligible node. Its restartPolicy must be Always.'),
      updateStrategy: field(DaemonSetUpdateStrategy, 'How existing daemon pods are replaced.'),
      minReadySeconds: int32('Seconds a new pod must be ready to count as available. Defaults to 0.', { minimum: 0 }),
      revisionHistoryLimit: int32('Number of old revisions kept for rollback. Defaults to 10.', { minimum: 0 }),
    },
    ['selector', 'template'],
  ),
);

const DaemonSetStatus = named(
  `${APPS}.DaemonSetStatus`,
  struct('Most recently observed state of a DaemonSet.', {
    currentNumberScheduled: int32('Number of nodes running at least one daemon pod that should run it.'),
    numberMisscheduled: int32('Number of nodes running the daemon pod that should not.'),
    desiredNumberScheduled: int32('Number of nodes that should run the daemon pod.'),
    numberReady: int32('Number of nodes whose daemon pod is ready.'),
    observedGeneration: int64('Generation observed by the controller.'),
    updatedNumberScheduled: int32('Number of nodes running the current template.'),
    numberAvailable: int32('Number of nodes whose daemon pod has been ready for minReadySeconds.'),
    numberUnavailable: int32('Number of nodes that should run an available daemon pod but do not.'),
    collisionCount: int32('Count of hash collisions, used to name new revisions.'),
    conditions: conditionList("Latest observations of the DaemonSet's state.", workloadCondition('DaemonSet', 'any')),
  }),
);

export const DaemonSetSchema = kindSchema(
  { group: 'apps', version: 'v1', kind: 'DaemonSet' },
  'Runs one copy of a pod on every eligible node (or every node matching its node selector).',
  {
    spec: field(DaemonSetSpec, 'Specification of the desired behaviour of the DaemonSet.'),
    status: field(DaemonSetStatus, 'Most recently observed status of the DaemonSet. Read-only.'),
  },
);
