// apps/v1 StatefulSet rules (pkg/apis/apps/validation ValidateStatefulSet / Update) and
// ControllerRevision rules (ValidateControllerRevision / Update).
import type { FieldError, KubeObject } from '../meta.js';
import { CLAIM_RETENTION_POLICIES, POD_MANAGEMENT_POLICIES, STATEFUL_SET_UPDATE_STRATEGIES } from '../schemas/statefulset.js';
import { forbidden, invalid, invalidEach, notSupported, required } from './field-errors.js';
import { isDns1123Label } from './name-rules.js';
import { arr, obj, objects, text, type Obj } from './util.js';
import { immutableSelector, validateIntOrPercent, validateSelectorAndTemplate } from './workload-validation.js';
import { semanticEqual } from '../../util/json-equal.js';

const ACCESS_MODES = ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'];
/** The spec fields an update may change; the others are fixed at creation. */
const MUTABLE_SPEC_FIELDS = [
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'revisionHistoryLimit',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
];
const IMMUTABLE_MESSAGE =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', " +
  "'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

function nonNegative(spec: Obj, key: string, path: string): FieldError[] {
  const value = spec[key];
  return typeof value === 'number' && value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
}

function oneOf(value: unknown, path: string, allowed: readonly string[]): FieldError[] {
  if (!isSet(value)) return [required(path, '')];
  return allowed.includes(String(value)) ? [] : [notSupported(path, value, allowed)];
}

function validateUpdateStrategy(strategy: Obj): FieldError[] {
  const path = 'spec.updateStrategy';
  const errors = oneOf(strategy['type'], `${path}.type`, STATEFUL_SET_UPDATE_STRATEGIES);
  const rolling = strategy['rollingUpdate'];
  if (!isSet(rolling)) return errors;
  if (strategy['type'] !== 'RollingUpdate') {
    errors.push(invalid(`${path}.rollingUpdate`, rolling, "only allowed for updateStrategy 'RollingUpdate'"));
    return errors;
  }
  errors.push(...nonNegative(obj(rolling), 'partition', `${path}.rollingUpdate.partition`));
  const maxUnavailable = obj(rolling)['maxUnavailable'];
  errors.push(...validateIntOrPercent(maxUnavailable, `${path}.rollingUpdate.maxUnavailable`, true));
  if (maxUnavailable === 0 || maxUnavailable === '0%') errors.push(invalid(`${path}.rollingUpdate.maxUnavailable`, maxUnavailable, 'must be greater than 0'));
  return errors;
}

/** Each template names the pods' volume (a DNS label) and asks for storage with an access mode. */
function validateClaimTemplates(claims: Obj[]): FieldError[] {
  const errors: FieldError[] = [];
  claims.forEach((claim, i) => {
    const path = `spec.volumeClaimTemplates[${i}]`;
    const name = text(obj(claim['metadata'])['name']);
    if (name === '') errors.push(required(`${path}.metadata.name`, 'name or generateName is required'));
    else errors.push(...invalidEach(`${path}.metadata.name`, name, isDns1123Label(name)));
    const spec = obj(claim['spec']);
    const modes = arr(spec['accessModes']);
    if (modes.length === 0) errors.push(required(`${path}.spec.accessModes`, 'at least 1 access mode is required'));
    for (const mode of modes) if (!ACCESS_MODES.includes(String(mode))) errors.push(notSupported(`${path}.spec.accessModes`, mode, ACCESS_MODES));
    if (!isSet(obj(obj(spec['resources'])['requests'])['storage'])) errors.push(required(`${path}.spec.resources[storage]`, ''));
  });
  return errors;
}

/**
 * The template's volumeMounts may name claim templates: they become persistentVolumeClaim volumes
 * of each pod, so the pod spec is checked as the pods will have it.
 */
function withClaimVolumes(spec: Obj, claims: Obj[]): Obj {
  const template = obj(spec['template']);
  if (claims.length === 0 || !isSet(spec['template'])) return spec;
  const podSpec = obj(template['spec']);
  const volumes = objects(podSpec['volumes']);
  const named = new Set(volumes.map((v) => text(v['name'])));
  const added = claims
    .map((c) => text(obj(c['metadata'])['name']))
    .filter((name) => name !== '' && !named.has(name))
    .map((name) => ({ name, persistentVolumeClaim: { claimName: name } }));
  return { ...spec, template: { ...template, spec: { ...podSpec, volumes: [...volumes, ...added] } } };
}

export function validateStatefulSet(statefulSet: KubeObject, old?: KubeObject): FieldError[] {
  const spec = obj(statefulSet['spec']);
  const claims = objects(spec['volumeClaimTemplates']);
  const errors = validateSelectorAndTemplate(withClaimVolumes(spec, claims), 'StatefulSet', ['Always']);
  errors.push(...oneOf(spec['podManagementPolicy'], 'spec.podManagementPolicy', POD_MANAGEMENT_POLICIES));
  errors.push(...validateUpdateStrategy(obj(spec['updateStrategy'])));
  const retention = obj(spec['persistentVolumeClaimRetentionPolicy']);
  errors.push(...oneOf(retention['whenDeleted'], 'spec.persistentVolumeClaimRetentionPolicy.whenDeleted', CLAIM_RETENTION_POLICIES));
  errors.push(...oneOf(retention['whenScaled'], 'spec.persistentVolumeClaimRetentionPolicy.whenScaled', CLAIM_RETENTION_POLICIES));
  errors.push(...nonNegative(spec, 'replicas', 'spec.replicas'));
  errors.push(...nonNegative(spec, 'minReadySeconds', 'spec.minReadySeconds'));
  errors.push(...nonNegative(obj(spec['ordinals']), 'start', 'spec.ordinals.start'));
  const serviceName = text(spec['serviceName']);
  if (serviceName !== '') errors.push(...invalidEach('spec.serviceName', serviceName, isDns1123Label(serviceName)));
  errors.push(...validateClaimTemplates(claims));
  if (old) errors.push(...validateStatefulSetUpdate(spec, obj(old['spec'])));
  return errors;
}

function validateStatefulSetUpdate(spec: Obj, oldSpec: Obj): FieldError[] {
  const fixed = (s: Obj) => Object.fromEntries(Object.entries(s).filter(([key]) => !MUTABLE_SPEC_FIELDS.includes(key)));
  if (!semanticEqual(fixed(spec), fixed(oldSpec))) return [forbidden('spec', IMMUTABLE_MESSAGE)];
  return immutableSelector(spec, oldSpec);
}

export function validateControllerRevision(revision: KubeObject, old?: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  if (!isSet(revision['data'])) errors.push(required('data', 'data is mandatory'));
  const number = revision['revision'];
  if (typeof number === 'number' && number < 0) errors.push(invalid('revision', number, 'must be greater than or equal to 0'));
  if (old && !semanticEqual(revision['data'], old['data'])) errors.push(invalid('data', revision['data'] ?? null, 'field is immutable'));
  return errors;
}
