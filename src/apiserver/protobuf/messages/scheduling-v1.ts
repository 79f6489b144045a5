// scheduling.k8s.io/v1 PriorityClass (api/scheduling/v1/generated.proto).
import { objectMeta } from './meta-v1.js';
import { ALWAYS, bool, i32, message, msg, PTR, str } from './schema.js';

export const priorityClass = message('PriorityClass', {
  1: msg('metadata', objectMeta),
  2: i32('value', ALWAYS),
  3: bool('globalDefault'),
  4: str('description'),
  5: str('preemptionPolicy', PTR),
});
