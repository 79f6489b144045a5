// Rules for the smaller core/v1 and coordination kinds.
import type { FieldError, KubeObject } from '../meta.js';
import { duplicate, forbidden, invalid, invalidEach, required, tooLong } from './field-errors.js';
import { isConfigMapKey, isDns1123Subdomain, isIPv4, isIPv6, isLabelValue, isQualifiedName } from './name-rules.js';
import { arr, obj, objects, text, type Obj } from './util.js';
import { semanticEqual } from '../../util/json-equal.js';

/** ConfigMaps and Secrets hold at most 1 MiB of data. */
export const MAX_DATA_SIZE = 1024 * 1024;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function validateDataKeys(data: Obj, path: string): FieldError[] {
  return Object.keys(data).flatMap((key) => invalidEach(`${path}[${key}]`, key, isConfigMapKey(key)));
}

/** `immutable: true` freezes the data and cannot itself be undone. */
function validateImmutableData(object: KubeObject, old: KubeObject, fields: readonly string[]): FieldError[] {
  if (old['immutable'] !== true) return [];
  const errors: FieldError[] = [];
  if (object['immutable'] !== true) errors.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
  for (const key of fields) {
    if (!semanticEqual(object[key], old[key])) errors.push(forbidden(key, 'field is immutable when `immutable` is set'));
  }
  return errors;
}

export function validateConfigMap(configMap: KubeObject, old?: KubeObject): FieldError[] {
  const data = obj(configMap['data']);
  const binary = obj(configMap['binaryData']);
  const errors = [...validateDataKeys(data, 'data'), ...validateDataKeys(binary, 'binaryData')];
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    if (Object.hasOwn(binary, key)) errors.push(invalid(`data[${key}]`, key, 'duplicate of key present in binaryData'));
    size += typeof value === 'string' ? Buffer.byteLength(value) : 0;
  }
  for (const [key, value] of Object.entries(binary)) {
    if (typeof value === 'string' && !BASE64.test(value)) errors.push(invalid(`binaryData[${key}]`, '<binary>', 'must be valid base64'));
    size += typeof value === 'string' ? Math.floor((value.length * 3) / 4) : 0;
  }
  if (size > MAX_DATA_SIZE) errors.push(tooLong('', MAX_DATA_SIZE));
  if (old) errors.push(...validateImmutableData(configMap, old, ['data', 'binaryData']));
  return errors;
}

/** Keys a Secret of a given type must carry. */
const REQUIRED_SECRET_KEYS: Record<string, readonly string[]> = {
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/dockercfg': ['.dockercfg'],
  'kubernetes.io/ssh-auth': ['ssh-privatekey'],
};

export function validateSecret(secret: KubeObject, old?: KubeObject): FieldError[] {
  const data = obj(secret['data']);
  const errors = validateDataKeys(data, 'data');
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    if (typeof value !== 'string') continue;
    if (!BASE64.test(value)) errors.push(invalid(`data[${key}]`, '<secret contents redacted>', 'must be valid base64'));
    size += Math.floor((value.length * 3) / 4);
  }
  if (size > MAX_DATA_SIZE) errors.push(tooLong('data', MAX_DATA_SIZE));
  const type = text(secret['type']);
  for (const key of REQUIRED_SECRET_KEYS[type] ?? []) {
    if (!(key in data)) errors.push(required(`data[${key}]`));
  }
  if (type === 'kubernetes.io/basic-auth' && !('username' in data) && !('password' in data)) {
    errors.push(required('data[username]', 'one of username or password is required'));
  }
  if (type === 'kubernetes.io/service-account-token' && text(obj(secret.metadata.annotations)['kubernetes.io/service-account.name']) === '') {
    errors.push(required('metadata.annotations[kubernetes.io/service-account.name]'));
  }
  if (old) {
    if (text(old['type']) !== type) errors.push(invalid('type', type, 'field is immutable'));
    errors.push(...validateImmutableData(secret, old, ['data']));
  }
  return errors;
}

export function validateNamespace(namespace: KubeObject): FieldError[] {
  const finalizers = arr(obj(namespace['spec'])['finalizers']);
  return finalizers.flatMap((finalizer, i) =>
    typeof finalizer === 'string' ? invalidEach(`spec.finalizers[${i}]`, finalizer, isQualifiedName(finalizer)) : [],
  );
}

/** Kubernetes' IsValidCIDR: an IPv4 or IPv6 address and a prefix length that fits it. */
function isCidr(value: string): boolean {
  const [address, prefix, extra] = value.split('/');
  if (extra !== undefined || address === undefined || prefix === undefined || !/^\d{1,3}$/.test(prefix)) return false;
  if (isIPv4(address)) return Number(prefix) <= 32;
  return isIPv6(address) && Number(prefix) <= 128;
}

function podCidrsOf(node: KubeObject | undefined): string[] {
  const spec = obj(node?.['spec']);
  const list = arr(spec['podCIDRs']).map(text);
  const single = text(spec['podCIDR']);
  return list.length > 0 ? list : single === '' ? [] : [single];
}

/**
 * spec.podCIDR(s): valid ranges, podCIDR the first of podCIDRs, and set once only: the node IPAM
 * controller assigns it, and the node's pods already hold addresses from it.
 */
function validatePodCidrs(node: KubeObject, old: KubeObject | undefined): FieldError[] {
  const errors: FieldError[] = [];
  const spec = obj(node['spec']);
  const cidrs = podCidrsOf(node);
  cidrs.forEach((cidr, i) => {
    if (!isCidr(cidr)) errors.push(invalid(`spec.podCIDRs[${i}]`, cidr, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'));
  });
  const single = text(spec['podCIDR']);
  if (single !== '' && cidrs[0] !== single) errors.push(invalid('spec.podCIDR', single, 'must be the first of spec.podCIDRs'));
  const before = podCidrsOf(old);
  if (old && before.length > 0 && before.join(',') !== cidrs.join(',')) {
    errors.push(forbidden('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid'));
  }
  return errors;
}

export function validateNode(node: KubeObject, old?: KubeObject): FieldError[] {
  const errors: FieldError[] = validatePodCidrs(node, old);
  const seen = new Set<string>();
  objects(obj(node['spec'])['taints']).forEach((taint, i) => {
    const at = `spec.taints[${i}]`;
    const key = text(taint['key']);
    errors.push(...invalidEach(`${at}.key`, key, isQualifiedName(key)));
    const value = text(taint['value']);
    if (value !== '') errors.push(...invalidEach(`${at}.value`, value, isLabelValue(value)));
    const identity = `${key}:${text(taint['effect'])}`;
    if (seen.has(identity)) errors.push(duplicate(at, { key, effect: taint['effect'] }));
    seen.add(identity);
  });
  return errors;
}

export function validateEvent(event: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const involved = obj(event['involvedObject']);
  const namespace = text(involved['namespace']);
  const own = text(event.metadata.namespace);
  if (namespace !== '' && own !== '' && namespace !== own) {
    errors.push(invalid('involvedObject.namespace', namespace, 'does not match event.namespace'));
  }
  const count = event['count'];
  if (typeof count === 'number' && count < 0) errors.push(invalid('count', count, 'must be greater than or equal to 0'));
  return errors;
}

export function validateServiceAccount(account: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of ['secrets', 'imagePullSecrets']) {
    objects(account[key]).forEach((reference, i) => {
      const name = text(reference['name']);
      if (name !== '') errors.push(...invalidEach(`${key}[${i}].name`, name, isDns1123Subdomain(name)));
    });
  }
  return errors;
}

export function validateLease(lease: KubeObject): FieldError[] {
  const spec = obj(lease['spec']);
  const errors: FieldError[] = [];
  const duration = spec['leaseDurationSeconds'];
  if (typeof duration === 'number' && duration <= 0) errors.push(invalid('spec.leaseDurationSeconds', duration, 'must be greater than 0'));
  const transitions = spec['leaseTransitions'];
  if (typeof transitions === 'number' && transitions < 0) errors.push(invalid('spec.leaseTransitions', transitions, 'must be greater than or equal to 0'));
  return errors;
}

/** pods/binding bodies: a target node name, and kind empty or Node. */
export function validateBinding(binding: KubeObject): FieldError[] {
  const target = obj(binding['target']);
  const errors: FieldError[] = [];
  const kind = text(target['kind']);
  if (kind !== '' && kind !== 'Node') errors.push(invalid('target.kind', kind, "must be empty or 'Node'"));
  if (text(target['name']) === '') errors.push(required('target.name'));
  return errors;
}
