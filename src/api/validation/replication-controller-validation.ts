// core/v1 ReplicationController rules (ValidateReplicationController): a non-empty selector map
// the template's labels satisfy, a template whose pods run for ever. Unlike a ReplicaSet's, the
// selector may change.
import type { FieldError, KubeObject } from '../meta.js';
import { invalid, required } from './field-errors.js';
import { validateLabels } from './object-meta.js';
import { obj, stringMap } from './util.js';
import { validateSelectorAndTemplate } from './workload-validation.js';

export function validateReplicationController(rc: KubeObject): FieldError[] {
  const spec = obj(rc['spec']);
  const selector = stringMap(spec['selector']);
  const errors: FieldError[] = [];
  if (Object.keys(selector).length === 0) errors.push(required('spec.selector', ''));
  else errors.push(...validateLabels(selector, 'spec.selector'));
  for (const key of ['replicas', 'minReadySeconds']) {
    const value = spec[key];
    if (typeof value === 'number' && value < 0) errors.push(invalid(`spec.${key}`, value, 'must be greater than or equal to 0'));
  }
  // As a LabelSelector of matchLabels, the shared check compares it with the template's labels;
  // its own complaints about the selector are the ones above.
  const asSelector = Object.keys(selector).length > 0 ? { matchLabels: selector } : null;
  for (const error of validateSelectorAndTemplate({ ...spec, selector: asSelector }, 'ReplicationController', ['Always'])) {
    if (error.field !== 'spec.selector' && !error.field.startsWith('spec.selector.')) errors.push(error);
  }
  return errors;
}
