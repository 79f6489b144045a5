// Pods are mostly immutable once created (core/v1 ValidatePodUpdate). Only container images,
// a shorter activeDeadlineSeconds, added tolerations and removed scheduling gates may change.
import { isObject, type FieldError, type KubeObject } from '../meta.js';
import { forbidden, invalid } from './field-errors.js';
import { obj, objects, text, type Obj } from './util.js';
import { semanticEqual } from '../../util/json-equal.js';

const MUTABLE_FIELDS_MESSAGE =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,' +
  '`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),' +
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

export function validatePodUpdate(pod: KubeObject, old: KubeObject): FieldError[] {
  const spec = obj(pod['spec']);
  const oldSpec = obj(old['spec']);
  const errors: FieldError[] = [];
  errors.push(...checkDeadline(spec['activeDeadlineSeconds'], oldSpec['activeDeadlineSeconds']));
  errors.push(...checkTolerations(spec['tolerations'], oldSpec['tolerations']));
  errors.push(...checkGates(spec['schedulingGates'], oldSpec['schedulingGates']));
  // Compare a copy of the new spec in which every allowed change has been undone. Only top-level
  // fields and container images change, so copying those levels suffices (no deep clone).
  const masked: Obj = { ...spec };
  for (const key of ['containers', 'initContainers']) {
    const list = spec[key];
    if (Array.isArray(list)) masked[key] = list.map((item: unknown) => (isObject(item) ? { ...item } : item));
  }
  copyImages(masked, oldSpec, 'containers');
  copyImages(masked, oldSpec, 'initContainers');
  for (const key of ['activeDeadlineSeconds', 'tolerations', 'schedulingGates', 'ephemeralContainers']) {
    if (oldSpec[key] === undefined) delete masked[key];
    else masked[key] = oldSpec[key];
  }
  const oldGrace = oldSpec['terminationGracePeriodSeconds'];
  if (typeof oldGrace === 'number' && oldGrace < 0 && masked['terminationGracePeriodSeconds'] === 1) {
    masked['terminationGracePeriodSeconds'] = oldGrace;
  }
  if (!semanticEqual(masked, oldSpec)) errors.push(forbidden('spec', MUTABLE_FIELDS_MESSAGE));
  return errors;
}

function copyImages(target: Obj, old: Obj, key: string): void {
  const now = objects(target[key]);
  const before = objects(old[key]);
  if (now.length !== before.length) return;
  now.forEach((container, i) => {
    const previous = before[i];
    if (previous && text(previous['name']) === text(container['name'])) container['image'] = previous['image'];
  });
}

function checkDeadline(now: unknown, before: unknown): FieldError[] {
  if (typeof before !== 'number') return [];
  if (now === undefined || now === null) {
    return [invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value')];
  }
  if (typeof now === 'number' && now > before) {
    return [invalid('spec.activeDeadlineSeconds', now, 'must be less than or equal to previous value')];
  }
  return [];
}

function checkTolerations(now: unknown, before: unknown): FieldError[] {
  const current = objects(now);
  const missing = objects(before).some((old) => !current.some((toleration) => semanticEqual(toleration, old)));
  return missing ? [forbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds')] : [];
}

function checkGates(now: unknown, before: unknown): FieldError[] {
  const previous = new Set(objects(before).map((gate) => text(gate['name'])));
  const added = objects(now).some((gate) => !previous.has(text(gate['name'])));
  return added ? [forbidden('spec.schedulingGates', 'only deletion is allowed, but found new scheduling gate')] : [];
}
