// PersistentVolume, PersistentVolumeClaim and StorageClass validation, after Kubernetes'
// ValidatePersistentVolume(Update), ValidatePersistentVolumeClaim(Update) and
// ValidateStorageClass(Update): access modes, a positive storage quantity, exactly one volume
// source, local volumes pinned to a node, a claim's spec frozen once made (only its storage
// request may grow) and a class's provisioner, parameters and modes frozen too.
import type { FieldError, KubeObject } from '../meta.js';
import { compare, parseQuantity, ZERO } from '../quota/quantity.js';
import { PERSISTENT_VOLUME_SOURCE_FIELDS } from '../schemas/storage.js';
import { semanticEqual } from '../../util/json-equal.js';
import { forbidden, invalid, invalidEach, notSupported, required } from './field-errors.js';
import { isDns1123Subdomain, isQualifiedName } from './name-rules.js';
import { arr, obj, text, type Obj } from './util.js';
import { validateLabelSelector } from './workload-validation.js';

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];
const PV_RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
const CLASS_RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];
const MAX_PARAMETERS = 512;

function accessModeErrors(modes: unknown, path: string): FieldError[] {
  const list = arr(modes);
  if (list.length === 0) return [required(path, 'at least 1 access mode is required')];
  const errors: FieldError[] = [];
  for (const mode of list) if (!ACCESS_MODES.includes(text(mode))) errors.push(notSupported(path, mode, ACCESS_MODES));
  if (list.includes('ReadWriteOncePod') && list.length > 1) errors.push(forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errors;
}

function classNameErrors(name: unknown, path: string): FieldError[] {
  const value = text(name);
  return value === '' ? [] : invalidEach(path, value, isDns1123Subdomain(value));
}

function volumeModeErrors(mode: unknown, path: string): FieldError[] {
  return mode === undefined || VOLUME_MODES.includes(text(mode)) ? [] : [notSupported(path, mode, VOLUME_MODES)];
}

/** A path on the node: given, and without '..' (a volume must not climb out of where it points). */
function hostPathErrors(path: unknown, at: string): FieldError[] {
  const value = text(path);
  if (value === '') return [required(at)];
  return value.split('/').includes('..') ? [invalid(at, value, "must not contain '..'")] : [];
}

function nodeAffinityErrors(affinity: unknown, path: string): FieldError[] {
  if (affinity === undefined) return [];
  const terms = arr(obj(obj(affinity)['required'])['nodeSelectorTerms']);
  if (obj(affinity)['required'] === undefined) return [required(`${path}.required`)];
  return terms.length === 0 ? [required(`${path}.required.nodeSelectorTerms`, 'must have at least one node selector term')] : [];
}

function sourceErrors(spec: Obj): FieldError[] {
  const set = PERSISTENT_VOLUME_SOURCE_FIELDS.filter((name) => spec[name] !== undefined && spec[name] !== null);
  if (set.length === 0) return [required('spec', 'must specify a volume type')];
  if (set.length > 1) return [forbidden(`spec.${set[1]!}`, 'may not specify more than 1 volume type')];
  const errors: FieldError[] = [];
  if (set[0] === 'hostPath') errors.push(...hostPathErrors(obj(spec['hostPath'])['path'], 'spec.hostPath.path'));
  if (set[0] === 'local') {
    errors.push(...hostPathErrors(obj(spec['local'])['path'], 'spec.local.path'));
    if (spec['nodeAffinity'] === undefined) errors.push(required('spec.nodeAffinity', 'Local volume requires node affinity'));
  }
  return errors;
}

export function validatePersistentVolume(volume: KubeObject, old?: KubeObject): FieldError[] {
  const spec = obj(volume['spec']);
  const errors: FieldError[] = [...accessModeErrors(spec['accessModes'], 'spec.accessModes')];
  const capacity = obj(spec['capacity']);
  if (Object.keys(capacity).length === 0) errors.push(required('spec.capacity'));
  for (const [name, value] of Object.entries(capacity)) {
    if (name !== 'storage') errors.push(notSupported('spec.capacity', name, ['storage']));
    else errors.push(...quantityErrors(value, `spec.capacity[${name}]`, true));
  }
  const policy = spec['persistentVolumeReclaimPolicy'];
  if (policy !== undefined && !PV_RECLAIM_POLICIES.includes(text(policy)))
    errors.push(notSupported('spec.persistentVolumeReclaimPolicy', policy, PV_RECLAIM_POLICIES));
  errors.push(...classNameErrors(spec['storageClassName'], 'spec.storageClassName'));
  errors.push(...volumeModeErrors(spec['volumeMode'], 'spec.volumeMode'));
  errors.push(...nodeAffinityErrors(spec['nodeAffinity'], 'spec.nodeAffinity'));
  errors.push(...sourceErrors(spec));
  if (old) errors.push(...persistentVolumeUpdateErrors(spec, obj(old['spec'])));
  return errors;
}

function persistentVolumeUpdateErrors(spec: Obj, oldSpec: Obj): FieldError[] {
  const errors: FieldError[] = [];
  const source = (s: Obj) => PERSISTENT_VOLUME_SOURCE_FIELDS.map((name) => s[name] ?? null);
  if (!semanticEqual(source(spec), source(oldSpec)))
    errors.push(forbidden('spec.persistentvolumesource', 'spec.persistentvolumesource is immutable after creation'));
  if ((spec['volumeMode'] ?? 'Filesystem') !== (oldSpec['volumeMode'] ?? 'Filesystem'))
    errors.push(invalid('spec.volumeMode', spec['volumeMode'] ?? null, 'field is immutable'));
  if (oldSpec['nodeAffinity'] !== undefined && !semanticEqual(spec['nodeAffinity'], oldSpec['nodeAffinity'])) {
    errors.push(invalid('spec.nodeAffinity', '<nodeAffinity>', 'field is immutable'));
  }
  return errors;
}

function quantityErrors(value: unknown, path: string, positive: boolean): FieldError[] {
  const quantity = parseQuantity(value);
  if (!quantity) return [invalid(path, value, 'must be a valid quantity, e.g. 1Gi')];
  if (quantity.nano < 0n) return [invalid(path, value, 'must be greater than or equal to 0')];
  if (positive && quantity.nano === 0n) return [invalid(path, value, 'must be greater than zero')];
  return [];
}

/** A claim spec's own rules; also what a StatefulSet's volumeClaimTemplates are checked with. */
export function validateClaimSpec(spec: Obj, path: string): FieldError[] {
  const errors = accessModeErrors(spec['accessModes'], `${path}.accessModes`);
  const requests = obj(obj(spec['resources'])['requests']);
  if (requests['storage'] === undefined) errors.push(required(`${path}.resources[storage]`));
  else errors.push(...quantityErrors(requests['storage'], `${path}.resources[storage]`, true));
  if (spec['selector'] !== undefined) errors.push(...validateLabelSelector(obj(spec['selector']), `${path}.selector`));
  errors.push(...classNameErrors(spec['storageClassName'], `${path}.storageClassName`));
  errors.push(...volumeModeErrors(spec['volumeMode'], `${path}.volumeMode`));
  return errors;
}

export function validatePersistentVolumeClaim(claim: KubeObject, old?: KubeObject): FieldError[] {
  const spec = obj(claim['spec']);
  const errors = validateClaimSpec(spec, 'spec');
  if (old) errors.push(...claimUpdateErrors(spec, obj(old['spec']), obj(old['status'])['phase'] === 'Bound'));
  return errors;
}

/**
 * Only a bound claim's resources.requests may change, and only grow (whether the class allows
 * growth is the resize admission's question); volumeName may be set while it is unset (the
 * binder binds).
 */
function claimUpdateErrors(spec: Obj, oldSpec: Obj, bound: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const frozen = (s: Obj, volumeName: unknown) => ({
    ...s,
    resources: bound ? { ...obj(s['resources']), requests: undefined } : s['resources'],
    volumeName,
    volumeAttributesClassName: undefined,
  });
  const volumeName = text(oldSpec['volumeName']) === '' ? spec['volumeName'] : oldSpec['volumeName'];
  if (!semanticEqual(JSON.parse(JSON.stringify(frozen(spec, spec['volumeName']))), JSON.parse(JSON.stringify(frozen(oldSpec, volumeName))))) {
    errors.push(forbidden('spec', 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims'));
  }
  const now = parseQuantity(obj(obj(spec['resources'])['requests'])['storage']) ?? ZERO;
  const before = parseQuantity(obj(obj(oldSpec['resources'])['requests'])['storage']) ?? ZERO;
  if (compare(now, before) < 0) errors.push(forbidden('spec.resources.requests.storage', 'field can not be less than previous value'));
  return errors;
}

export function validateStorageClass(storageClass: KubeObject, old?: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const provisioner = text(storageClass['provisioner']);
  if (provisioner === '') errors.push(required('provisioner'));
  else errors.push(...invalidEach('provisioner', provisioner, isQualifiedName(provisioner.toLowerCase())));
  const parameters = obj(storageClass['parameters']);
  if (Object.keys(parameters).length > MAX_PARAMETERS) errors.push(invalid('parameters', '<parameters>', `must have at most ${MAX_PARAMETERS} parameters`));
  for (const key of Object.keys(parameters)) if (key === '') errors.push(invalid('parameters', key, 'key may not be empty'));
  const policy = storageClass['reclaimPolicy'];
  if (policy !== undefined && !CLASS_RECLAIM_POLICIES.includes(text(policy))) errors.push(notSupported('reclaimPolicy', policy, CLASS_RECLAIM_POLICIES));
  const mode = storageClass['volumeBindingMode'];
  if (mode === undefined) errors.push(required('volumeBindingMode'));
  else if (!BINDING_MODES.includes(text(mode))) errors.push(notSupported('volumeBindingMode', mode, BINDING_MODES));
  if (old) {
    if (!semanticEqual(storageClass['parameters'] ?? {}, old['parameters'] ?? {})) errors.push(forbidden('parameters', 'updates to parameters are forbidden.'));
    if (provisioner !== text(old['provisioner'])) errors.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
    if ((policy ?? 'Delete') !== (old['reclaimPolicy'] ?? 'Delete')) errors.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
    if (mode !== old['volumeBindingMode']) errors.push(invalid('volumeBindingMode', mode ?? null, 'field is immutable'));
  }
  return errors;
}
