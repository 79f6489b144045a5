// scheduling.k8s.io/v1 PriorityClass: a name for a pod priority value. Its fields sit at the top
// level of the object, not under a spec, as in Kubernetes.
import { bool, enumStr, int32, str } from './builders.js';
import { kindSchema } from './meta.js';
import { PREEMPTION_POLICIES, PRIORITY_CLASS_GROUP } from '../scheduling/priority.js';

export const PriorityClassSchema = kindSchema(
  { group: PRIORITY_CLASS_GROUP, version: 'v1', kind: 'PriorityClass' },
  'A mapping from a priority class name to the integer priority of the pods that name it. Higher is more important.',
  {
    value: int32('The integer priority of pods of this class. User-defined classes go up to 1000000000; higher values are reserved for the system classes.'),
    globalDefault: bool("Whether pods without a priorityClassName get this class's value. At most one class may be the default."),
    description: str('When this class should be used.'),
    preemptionPolicy: enumStr('Whether pods of this class may preempt lower-priority pods: PreemptLowerPriority (the default) or Never.', PREEMPTION_POLICIES),
  },
  ['value'],
);
