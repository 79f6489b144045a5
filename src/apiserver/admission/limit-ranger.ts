// Kubernetes' LimitRanger admission plugin, for pods. On create, the mutating half fills the
// namespace's LimitRange defaults into every container (and init container) that sets no request
// or limit for a resource, and records what it set in the kubernetes.io/limit-ranger annotation;
// the validating half refuses a pod whose containers, or whose total, fall outside a LimitRange's
// min, max or maxLimitRequestRatio, with Kubernetes' messages. PersistentVolumeClaim items are
// stored but not enforced yet (Kubernetes checks a claim's storage request against them).
import { isObject, type KubeObject } from '../../api/meta.js';
import { compare, formatQuantity, quantityMap, type Quantity, type QuantityMap } from '../../api/quota/quantity.js';
import { podResources } from '../../api/quota/usage.js';
import { whenReady, type MaybePromise } from '../../util/maybe-promise.js';
import type { AdmissionObjects } from './admission-objects.js';
import { forbidden } from '../errors.js';
import type { MutatingAdmission } from './mutating-admission.js';
import type { AdmissionRequest, ValidatingAdmission } from './validating-admission.js';

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

type Obj = Record<string, unknown>;

function objects(value: unknown): Obj[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function items(limitRange: KubeObject, type: string): Obj[] {
  const spec = isObject(limitRange['spec']) ? limitRange['spec'] : {};
  return objects(spec['limits']).filter((item) => item['type'] === type);
}

function isPodCreate(request: AdmissionRequest): boolean {
  return request.operation === 'create' && !request.subresource && request.def.group === '' && request.def.kind === 'Pod';
}

/** The defaults of every Container item, later items overriding earlier ones for the same resource. */
export function containerDefaults(limitRanges: readonly KubeObject[]): { requests: Obj; limits: Obj } {
  const requests: Obj = {};
  const limits: Obj = {};
  for (const limitRange of limitRanges) {
    for (const item of items(limitRange, 'Container')) {
      Object.assign(requests, isObject(item['defaultRequest']) ? item['defaultRequest'] : {});
      Object.assign(limits, isObject(item['default']) ? item['default'] : {});
    }
  }
  return { requests, limits };
}

/** Fills the defaults into one container; what it set, as the annotation words it ("cpu, memory request for container app"). */
function fillContainer(container: Obj, defaults: { requests: Obj; limits: Obj }, label: string): string[] {
  const resources = isObject(container['resources']) ? container['resources'] : {};
  const set = (kind: 'requests' | 'limits'): string[] => {
    const own: Obj = isObject(resources[kind]) ? resources[kind] : {};
    const added = Object.keys(defaults[kind])
      .filter((name) => own[name] === undefined)
      .sort();
    for (const name of added) own[name] = defaults[kind][name];
    if (Object.keys(own).length > 0) resources[kind] = own;
    return added;
  };
  const limits = set('limits');
  const requests = set('requests');
  if (Object.keys(resources).length > 0) container['resources'] = resources;
  const notes: string[] = [];
  if (requests.length > 0) notes.push(`${requests.join(', ')} request for ${label} ${String(container['name'] ?? '')}`);
  if (limits.length > 0) notes.push(`${limits.join(', ')} limit for ${label} ${String(container['name'] ?? '')}`);
  return notes;
}

/** Applies the defaults to a pod (exported for the tests). */
export function applyLimitRangeDefaults(pod: KubeObject, limitRanges: readonly KubeObject[]): void {
  if (limitRanges.length === 0) return;
  const defaults = containerDefaults(limitRanges);
  if (Object.keys(defaults.requests).length === 0 && Object.keys(defaults.limits).length === 0) return;
  const spec = isObject(pod['spec']) ? pod['spec'] : {};
  const notes = [
    ...objects(spec['containers']).flatMap((c) => fillContainer(c, defaults, 'container')),
    ...objects(spec['initContainers']).flatMap((c) => fillContainer(c, defaults, 'init container')),
  ];
  if (notes.length === 0) return;
  pod.metadata.annotations = { ...pod.metadata.annotations, [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` };
}

function minViolation(type: string, name: string, enforced: Quantity, requests: QuantityMap, limits: QuantityMap): string | undefined {
  const request = requests.get(name);
  const limit = limits.get(name);
  const bound = formatQuantity(enforced);
  if (!request) return `minimum ${name} usage per ${type} is ${bound}.  No request is specified`;
  if (compare(request, enforced) < 0) return `minimum ${name} usage per ${type} is ${bound}, but request is ${formatQuantity(request)}`;
  if (limit && compare(limit, enforced) < 0) return `minimum ${name} usage per ${type} is ${bound}, but limit is ${formatQuantity(limit)}`;
  return undefined;
}

function maxViolation(type: string, name: string, enforced: Quantity, requests: QuantityMap, limits: QuantityMap): string | undefined {
  const request = requests.get(name);
  const limit = limits.get(name);
  const bound = formatQuantity(enforced);
  if (!limit) return `maximum ${name} usage per ${type} is ${bound}.  No limit is specified`;
  if (compare(limit, enforced) > 0) return `maximum ${name} usage per ${type} is ${bound}, but limit is ${formatQuantity(limit)}`;
  if (request && compare(request, enforced) > 0) return `maximum ${name} usage per ${type} is ${bound}, but request is ${formatQuantity(request)}`;
  return undefined;
}

function ratioViolation(type: string, name: string, enforced: Quantity, requests: QuantityMap, limits: QuantityMap): string | undefined {
  const request = requests.get(name);
  const limit = limits.get(name);
  const bound = formatQuantity(enforced);
  if (!request || request.nano === 0n) return `${name} max limit to request ratio per ${type} is ${bound}, but no request is specified or request is 0`;
  if (!limit || limit.nano === 0n) return `${name} max limit to request ratio per ${type} is ${bound}, but no limit is specified or limit is 0`;
  // limit / request > enforced, exactly: enforced is in nano-units.
  if (limit.nano * 10n ** 9n > enforced.nano * request.nano) {
    const ratio = (Number(limit.nano) / Number(request.nano)).toFixed(6);
    return `${name} max limit to request ratio per ${type} is ${bound}, but provided ratio is ${ratio}`;
  }
  return undefined;
}

function violations(item: Obj, type: string, requests: QuantityMap, limits: QuantityMap): string[] {
  const out: string[] = [];
  const check = (field: string, rule: typeof minViolation): void => {
    const bounds = quantityMap(item[field]);
    for (const name of [...bounds.keys()].sort()) {
      const message = rule(type, name, bounds.get(name)!, requests, limits);
      if (message) out.push(message);
    }
  };
  check('min', minViolation);
  check('max', maxViolation);
  check('maxLimitRequestRatio', ratioViolation);
  return out;
}

/** Every way a pod breaks the LimitRanges (exported for the tests). */
export function limitRangeViolations(pod: KubeObject, limitRanges: readonly KubeObject[]): string[] {
  if (limitRanges.length === 0) return [];
  const spec = isObject(pod['spec']) ? pod['spec'] : {};
  const containers = [...objects(spec['containers']), ...objects(spec['initContainers'])];
  const out: string[] = [];
  for (const limitRange of limitRanges) {
    for (const item of items(limitRange, 'Container')) {
      for (const container of containers) {
        const resources = isObject(container['resources']) ? container['resources'] : {};
        out.push(...violations(item, 'Container', quantityMap(resources['requests']), quantityMap(resources['limits'])));
      }
    }
    for (const item of items(limitRange, 'Pod')) {
      out.push(...violations(item, 'Pod', podResources(pod, 'requests'), podResources(pod, 'limits')));
    }
  }
  return out;
}

/** Go's utilerrors.Aggregate text: one message alone, several in brackets. */
function aggregate(messages: string[]): string {
  return messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`;
}

export class LimitRanger implements MutatingAdmission, ValidatingAdmission {
  constructor(private readonly policies: AdmissionObjects) {}

  mutates(request: AdmissionRequest): boolean {
    return isPodCreate(request);
  }

  validates(request: AdmissionRequest): boolean {
    return isPodCreate(request);
  }

  admit(request: AdmissionRequest): MaybePromise<void> {
    if (!isPodCreate(request)) return;
    return whenReady(this.inNamespace(request.object.metadata.namespace), (limitRanges) => applyLimitRangeDefaults(request.object, limitRanges));
  }

  validate(request: AdmissionRequest): MaybePromise<string[]> {
    if (!isPodCreate(request)) return [];
    return whenReady(this.inNamespace(request.object.metadata.namespace), (limitRanges) => {
      const problems = limitRangeViolations(request.object, limitRanges);
      if (problems.length > 0) {
        const name = request.object.metadata.name ?? '';
        throw forbidden(`pods ${JSON.stringify(name)} is forbidden: ${aggregate(problems)}`, { group: '', plural: 'pods', name });
      }
      return [];
    });
  }

  private inNamespace(namespace: string | undefined): MaybePromise<readonly KubeObject[]> {
    return namespace ? this.policies.limitRanges(namespace) : [];
  }
}
