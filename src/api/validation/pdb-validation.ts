// policy/v1 PodDisruptionBudget rules, as Kubernetes' ValidatePodDisruptionBudgetSpec: at most one
// of minAvailable and maxUnavailable, each a non-negative integer or a percentage up to 100%, and
// a well-formed selector. The spec stays mutable (it is since policy/v1). The schema walk has
// already reported wrong types and unknown unhealthyPodEvictionPolicy values.
import type { FieldError, KubeObject } from '../meta.js';
import { invalid } from './field-errors.js';
import { obj } from './util.js';
import { validateIntOrPercent, validateLabelSelector } from './workload-validation.js';

const isSet = (value: unknown) => value !== undefined && value !== null;

export function validatePodDisruptionBudget(pdb: KubeObject): FieldError[] {
  const spec = obj(pdb['spec']);
  const errors: FieldError[] = [];
  if (isSet(spec['minAvailable']) && isSet(spec['maxUnavailable'])) {
    errors.push(invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  }
  errors.push(...validateIntOrPercent(spec['minAvailable'], 'spec.minAvailable', true));
  errors.push(...validateIntOrPercent(spec['maxUnavailable'], 'spec.maxUnavailable', true));
  if (isSet(spec['selector'])) errors.push(...validateLabelSelector(obj(spec['selector']), 'spec.selector'));
  return errors;
}
