// batch/v1 Job rules (pkg/apis/batch/validation), including what may change after creation.
import type { FieldError, KubeObject } from '../meta.js';
import { invalid, required } from './field-errors.js';
import { immutableSelector, validateSelectorAndTemplate } from './workload-validation.js';
import { clone, obj, objects, type Obj } from './util.js';
import { semanticEqual } from '../../util/json-equal.js';

export function validateJob(job: KubeObject, old?: KubeObject): FieldError[] {
  const spec = obj(job['spec']);
  const errors = validateSelectorAndTemplate(spec, 'Job', ['OnFailure', 'Never']);
  const deadline = spec['activeDeadlineSeconds'];
  if (typeof deadline === 'number' && deadline <= 0) {
    errors.push(invalid('spec.activeDeadlineSeconds', deadline, 'must be greater than or equal to 1'));
  }
  if (spec['completionMode'] === 'Indexed' && (spec['completions'] === undefined || spec['completions'] === null)) {
    errors.push(required('spec.completions', 'when completion mode is Indexed'));
  }
  if (spec['completionMode'] !== 'Indexed') {
    for (const key of ['backoffLimitPerIndex', 'maxFailedIndexes', 'successPolicy']) {
      if (spec[key] !== undefined && spec[key] !== null) errors.push(invalid(`spec.${key}`, spec[key], 'requires indexed completion mode'));
    }
  }
  const restartPolicy = obj(obj(obj(spec['template'])['spec']))['restartPolicy'];
  if (spec['podFailurePolicy'] && restartPolicy !== 'Never') {
    errors.push(invalid('spec.template.spec.restartPolicy', restartPolicy ?? '', 'only "Never" is supported when podFailurePolicy is specified'));
  }
  errors.push(...validateFailurePolicy(obj(spec['podFailurePolicy'])));
  if (old) errors.push(...validateJobUpdate(spec, obj(old['spec']), obj(old['status'])));
  return errors;
}

function validateFailurePolicy(policy: Obj): FieldError[] {
  const errors: FieldError[] = [];
  objects(policy['rules']).forEach((rule, i) => {
    const at = `spec.podFailurePolicy.rules[${i}]`;
    const exitCodes = rule['onExitCodes'];
    const conditions = objects(rule['onPodConditions']);
    if ((exitCodes === undefined || exitCodes === null) && conditions.length === 0) {
      errors.push(invalid(at, '', 'specifying one of OnExitCodes and OnPodConditions is required'));
    }
    if (exitCodes && conditions.length > 0) {
      errors.push(invalid(at, '', 'specifying both OnExitCodes and OnPodConditions is not supported'));
    }
    const codes = obj(exitCodes);
    if (codes['operator'] === 'In' && Array.isArray(codes['values']) && codes['values'].includes(0)) {
      errors.push(invalid(`${at}.onExitCodes.values`, 0, 'must not be 0 for the In operator'));
    }
  });
  return errors;
}

/** Template fields a suspended job that never started may still change (scheduling directives). */
const SCHEDULING_FIELDS = ['nodeSelector', 'affinity', 'tolerations', 'schedulingGates'];

function validateJobUpdate(spec: Obj, oldSpec: Obj, oldStatus: Obj): FieldError[] {
  const errors = immutableSelector(spec, oldSpec);
  if (spec['completionMode'] !== oldSpec['completionMode']) {
    errors.push(invalid('spec.completionMode', spec['completionMode'] ?? null, 'field is immutable'));
  }
  const elastic = spec['completionMode'] === 'Indexed' && spec['completions'] === spec['parallelism'];
  if (!elastic && !semanticEqual(spec['completions'], oldSpec['completions'])) {
    errors.push(invalid('spec.completions', spec['completions'] ?? null, 'field is immutable'));
  }
  const template = clone(obj(spec['template']));
  const oldTemplate = obj(oldSpec['template']);
  const neverStarted = oldSpec['suspend'] === true && (oldStatus['startTime'] === undefined || oldStatus['startTime'] === null);
  if (neverStarted) undoSchedulingChanges(template, oldTemplate);
  if (!semanticEqual(template, oldTemplate)) errors.push(invalid('spec.template', spec['template'], 'field is immutable'));
  return errors;
}

function undoSchedulingChanges(template: Obj, oldTemplate: Obj): void {
  const metadata = obj(template['metadata']);
  const oldMetadata = obj(oldTemplate['metadata']);
  template['metadata'] = { ...metadata, labels: oldMetadata['labels'], annotations: oldMetadata['annotations'] };
  const podSpec = obj(template['spec']);
  const oldPodSpec = obj(oldTemplate['spec']);
  for (const key of SCHEDULING_FIELDS) podSpec[key] = oldPodSpec[key];
  template['spec'] = podSpec;
}
