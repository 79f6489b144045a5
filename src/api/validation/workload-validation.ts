// apps/v1 rules: selectors that match their pod templates, rollout strategies, immutable selectors.
import type { FieldError, KubeObject } from '../meta.js';
import { forbidden, invalid, invalidEach, notSupported, required } from './field-errors.js';
import { regexError } from './name-rules.js';
import { validateAnnotations, validateLabels } from './object-meta.js';
import { validatePodSpec } from './pod-validation.js';
import { arr, obj, objects, selectorIsEmpty, selectorMatches, stringMap, text, type Obj } from './util.js';
import { semanticEqual } from '../../util/json-equal.js';

/** A LabelSelector's own syntax: valid labels, and values only with In / NotIn. */
export function validateLabelSelector(selector: Obj, path: string): FieldError[] {
  const errors = validateLabels(selector['matchLabels'], `${path}.matchLabels`);
  objects(selector['matchExpressions']).forEach((expression, i) => {
    const at = `${path}.matchExpressions[${i}]`;
    const operator = text(expression['operator']);
    const values = arr(expression['values']);
    if ((operator === 'In' || operator === 'NotIn') && values.length === 0) {
      errors.push(required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    }
    if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length > 0) {
      errors.push(forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    }
    errors.push(...validateLabels({ [text(expression['key'])]: '' }, `${at}.key`));
  });
  return errors;
}

/**
 * selector present, non-empty, valid, and matching the template's labels; then the template
 * itself, with the restart policies the controller allows.
 */
export function validateSelectorAndTemplate(spec: Obj, kind: string, restartPolicies: readonly string[], templateRequired = true): FieldError[] {
  const errors: FieldError[] = [];
  const selector = spec['selector'];
  const template = spec['template'];
  if (selector === undefined || selector === null) errors.push(required('spec.selector'));
  else {
    errors.push(...validateLabelSelector(obj(selector), 'spec.selector'));
    if (selectorIsEmpty(selector)) errors.push(invalid('spec.selector', selector, `empty selector is invalid for ${kind.toLowerCase()}`));
  }
  if (template === undefined || template === null) {
    if (templateRequired) errors.push(required('spec.template'));
    return errors;
  }
  const metadata = obj(obj(template)['metadata']);
  const labels = stringMap(metadata['labels']);
  if (selector && !selectorIsEmpty(selector) && !selectorMatches(selector, labels)) {
    errors.push(invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
  }
  errors.push(...validateTemplate(obj(template), kind, restartPolicies));
  return errors;
}

function validateTemplate(template: Obj, kind: string, restartPolicies: readonly string[]): FieldError[] {
  const metadata = obj(template['metadata']);
  const spec = obj(template['spec']);
  const errors = [
    ...validateLabels(metadata['labels'], 'spec.template.metadata.labels'),
    ...validateAnnotations(metadata['annotations'], 'spec.template.metadata.annotations'),
    ...validatePodSpec(spec, 'spec.template.spec'),
  ];
  const restartPolicy = text(spec['restartPolicy']);
  if (!restartPolicies.includes(restartPolicy)) {
    errors.push(notSupported('spec.template.spec.restartPolicy', restartPolicy, restartPolicies));
  }
  if (kind !== 'Job' && spec['activeDeadlineSeconds'] !== undefined && spec['activeDeadlineSeconds'] !== null) {
    errors.push(forbidden('spec.template.spec.activeDeadlineSeconds', `activeDeadlineSeconds in ${kind} is not Supported`));
  }
  return errors;
}

const PERCENT = /^[0-9]+%$/;

/** maxSurge / maxUnavailable (and a disruption budget's bounds): a non-negative integer or a percentage. */
export function validateIntOrPercent(value: unknown, path: string, capAt100: boolean): FieldError[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'number') return value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
  const textValue = String(value);
  if (!PERCENT.test(textValue)) {
    return [invalid(path, textValue, regexError("a valid percent string must be a numeric string followed by an ending '%'", '[0-9]+%', '1%', '93%'))];
  }
  if (capAt100 && Number(textValue.slice(0, -1)) > 100) return [invalid(path, textValue, 'must not be greater than 100%')];
  return [];
}

function isZero(value: unknown): boolean {
  return value === 0 || value === '0%';
}

/** Both limits of a rolling update, which may not both be zero. */
export function validateRollingUpdate(rolling: Obj, path: string): FieldError[] {
  const errors = [
    ...validateIntOrPercent(rolling['maxUnavailable'], `${path}.maxUnavailable`, true),
    ...validateIntOrPercent(rolling['maxSurge'], `${path}.maxSurge`, false),
  ];
  if (isZero(rolling['maxUnavailable']) && isZero(rolling['maxSurge'])) {
    errors.push(invalid(`${path}.maxUnavailable`, rolling['maxUnavailable'], 'may not be 0 when `maxSurge` is 0'));
  }
  return errors;
}

/**
 * A Deployment's strategy or a DaemonSet's updateStrategy: rollingUpdate belongs to the
 * RollingUpdate type only, so the other type (`otherType`: Recreate, OnDelete) forbids it.
 */
function validateUpdateStrategy(strategy: Obj, path: string, otherType: string): FieldError[] {
  const rolling = strategy['rollingUpdate'];
  if (strategy['type'] === otherType && rolling !== undefined && rolling !== null) {
    return [forbidden(`${path}.rollingUpdate`, `may not be specified when strategy \`type\` is '${otherType}'`)];
  }
  return rolling ? validateRollingUpdate(obj(rolling), `${path}.rollingUpdate`) : [];
}

export function validateDeployment(deployment: KubeObject, old?: KubeObject): FieldError[] {
  const spec = obj(deployment['spec']);
  const errors = validateSelectorAndTemplate(spec, 'Deployment', ['Always']);
  errors.push(...validateUpdateStrategy(obj(spec['strategy']), 'spec.strategy', 'Recreate'));
  const deadline = spec['progressDeadlineSeconds'];
  const minReady = typeof spec['minReadySeconds'] === 'number' ? spec['minReadySeconds'] : 0;
  if (typeof deadline === 'number' && deadline <= minReady) {
    errors.push(invalid('spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds'));
  }
  if (old) errors.push(...immutableSelector(spec, obj(old['spec'])));
  return errors;
}

export function validateReplicaSet(replicaSet: KubeObject, old?: KubeObject): FieldError[] {
  const spec = obj(replicaSet['spec']);
  const errors = validateSelectorAndTemplate(spec, 'ReplicaSet', ['Always'], false);
  if (old) errors.push(...immutableSelector(spec, obj(old['spec'])));
  return errors;
}

export function validateDaemonSet(daemonSet: KubeObject, old?: KubeObject): FieldError[] {
  const spec = obj(daemonSet['spec']);
  const errors = validateSelectorAndTemplate(spec, 'DaemonSet', ['Always']);
  errors.push(...validateUpdateStrategy(obj(spec['updateStrategy']), 'spec.updateStrategy', 'OnDelete'));
  const minReady = spec['minReadySeconds'];
  if (typeof minReady === 'number') errors.push(...invalidEach('spec.minReadySeconds', minReady, minReady < 0 ? ['must be greater than or equal to 0'] : []));
  if (old) errors.push(...immutableSelector(spec, obj(old['spec'])));
  return errors;
}

export function immutableSelector(spec: Obj, oldSpec: Obj): FieldError[] {
  return semanticEqual(spec['selector'], oldSpec['selector']) ? [] : [invalid('spec.selector', spec['selector'] ?? null, 'field is immutable')];
}
