// scheduling.x-k8s.io/v1alpha1 PodGroup, as the coscheduling plugin of kubernetes-sigs/
// scheduler-plugins defines it: pods join a group by the label scheduling.x-k8s.io/pod-group,
// and none of them is bound until minMember of them have places. The training-job controller
// makes one per job; users may make their own for plain pods and Jobs.
import { enumStr, field, int32, map, named, quantity, str, struct, time } from './builders.js';
import { Condition, conditionList, kindSchema } from './meta.js';

const SCHED = 'io.x-k8s.scheduling.v1alpha1';

export const POD_GROUP_LABEL = 'scheduling.x-k8s.io/pod-group';
export const POD_GROUP_PHASES = ['Pending', 'Scheduling', 'Scheduled', 'Running', 'Finished', 'Failed', 'Unknown'] as const;

const PodGroupSpec = named(
  `${SCHED}.PodGroupSpec`,
  struct('What the group needs before any of its pods is bound.', {
    minMember: int32('Pods that must have places at once before any is bound. Defaults to 1.', { minimum: 1 }),
    minResources: map(
      "Resources the group needs in all; a group whose minResources exceed the cluster's free capacity is not admitted to placement.",
      quantity('A quantity.'),
    ),
    scheduleTimeoutSeconds: int32('Seconds a partially placed group may hold its places before they are all released. Defaults to 60.', { minimum: 1 }),
  }),
);

const PodGroupStatus = named(
  `${SCHED}.PodGroupStatus`,
  struct('Observed state of the group.', {
    phase: enumStr(
      'Pending (waiting for members or room), Scheduling (members being placed), Scheduled (minMember bound), Running (minMember running), Finished (members succeeded), Failed (can never fit, or members failed).',
      POD_GROUP_PHASES,
    ),
    occupiedBy: str('The workload that owns the group, as namespace/name.'),
    scheduled: int32('Members bound to a node.'),
    running: int32('Members running.'),
    succeeded: int32('Members that succeeded.'),
    failed: int32('Members that failed.'),
    scheduleStartTime: time('When the scheduler first tried to place the group.'),
    conditions: conditionList('Drover: why the group waits or failed (Unschedulable with the capacity it needs and the cluster has).', Condition),
  }),
);

export const PodGroupSchema = kindSchema(
  { group: 'scheduling.x-k8s.io', version: 'v1alpha1', kind: 'PodGroup' },
  'A gang of pods that are scheduled all together or not at all.',
  {
    spec: field(PodGroupSpec, 'What the group needs.'),
    status: field(PodGroupStatus, 'Observed state of the group. Read-only.'),
  },
);
