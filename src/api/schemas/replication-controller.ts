// core/v1 ReplicationController: the original replicated-pod kind, a ReplicaSet whose selector
// is a plain label map (equality only).
import { workloadCondition } from './apps.js';
import { field, int32, int64, map, named, struct } from './builders.js';
import { conditionList, kindSchema } from './meta.js';
import { PodTemplateSpec } from './pod.js';

const CORE = 'io.k8s.api.core.v1';

const ReplicationControllerCondition = workloadCondition('ReplicationController', 'ReplicaFailure', CORE);

const ReplicationControllerSpec = named(
  `${CORE}.ReplicationControllerSpec`,
  struct('Desired behaviour of a ReplicationController.', {
    replicas: int32('Number of desired pods. Defaults to 1.', { minimum: 0 }),
    minReadySeconds: int32('Seconds a new pod must be ready, with no container crashing, to count as available. Defaults to 0.', { minimum: 0 }),
    selector: map("Labels the managed pods must carry (all of them). Defaults to the template's labels.", undefined, { 'x-kubernetes-map-type': 'atomic' }),
    template: field(PodTemplateSpec, 'Template of the pods created when too few exist.'),
  }),
);

const ReplicationControllerStatus = named(
  `${CORE}.ReplicationControllerStatus`,
  struct(
    'Most recently observed state of a ReplicationController.',
    {
      replicas: int32('Most recently observed number of pods.'),
      fullyLabeledReplicas: int32("Number of pods whose labels match the template's labels."),
      readyReplicas: int32('Number of pods with a Ready condition.'),
      availableReplicas: int32('Number of pods ready for at least minReadySeconds.'),
      observedGeneration: int64('Generation observed by the controller.'),
      conditions: conditionList("Latest observations of the ReplicationController's state.", ReplicationControllerCondition),
    },
    ['replicas'],
  ),
);

export const ReplicationControllerSchema = kindSchema(
  { group: '', version: 'v1', kind: 'ReplicationController' },
  'Keeps a given number of pod replicas running (the kind ReplicaSets replaced; served for manifests that still use it).',
  {
    spec: field(ReplicationControllerSpec, 'Specification of the desired behaviour of the ReplicationController.'),
    status: field(ReplicationControllerStatus, 'Most recently observed status of the ReplicationController. Read-only.'),
  },
);
