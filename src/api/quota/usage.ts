// What an object uses of a ResourceQuota, after Kubernetes' quota evaluators: every object counts
// one of `count/<resource>[.<group>]`; pods, services, configmaps, secrets, replication
// controllers, quotas and claims also count under their legacy names; a pod that has not ended
// also uses `pods` and its compute resources (cpu = requests.cpu, limits.cpu, extended resources
// as requests.<name>, ...). Shared by the admission (which charges it) and the quota controller
// (which adds it up again from the namespace's objects).
import { isObject, type KubeObject } from '../meta.js';
import { addMaps, mask, maxMaps, quantityMap, type Quantity, type QuantityMap } from './quantity.js';

type Obj = Record<string, unknown>;

const ONE: Quantity = { nano: 10n ** 9n, format: 'DecimalSI' };
/** Kinds whose count also has a plain name in quotas (`configmaps` as well as `count/configmaps`). */
const LEGACY_COUNTS = new Set(['pods', 'services', 'configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas', 'persistentvolumeclaims']);
/** Quota names of pods' compute resources that need every container to state them (Kubernetes' validationSet). */
export const CONTAINER_DECLARED = ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'];
const STANDARD_COMPUTE = ['cpu', 'memory', 'ephemeral-storage'];

export interface ResourceKind {
  group: string;
  plural: string;
}

function list(value: unknown): Obj[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function spec(object: KubeObject): Obj {
  return isObject(object['spec']) ? object['spec'] : {};
}

function containerResources(container: Obj, kind: 'requests' | 'limits'): QuantityMap {
  const resources = isObject(container['resources']) ? container['resources'] : {};
  return quantityMap(resources[kind]);
}

/**
 * A pod's effective requests or limits, as Kubernetes' PodRequests/PodLimits: the containers'
 * sum (sidecars, restartable init containers, included), at least the largest need of any init
 * container while it runs, plus the pod overhead.
 */
export function podResources(pod: KubeObject, kind: 'requests' | 'limits'): QuantityMap {
  const podSpec = spec(pod);
  let total: QuantityMap = new Map();
  for (const container of list(podSpec['containers'])) total = addMaps(total, containerResources(container, kind));
  let sidecars: QuantityMap = new Map();
  let initPeak: QuantityMap = new Map();
  for (const container of list(podSpec['initContainers'])) {
    const own = containerResources(container, kind);
    if (container['restartPolicy'] === 'Always') {
      sidecars = addMaps(sidecars, own);
      initPeak = maxMaps(initPeak, sidecars);
    } else {
      // A plain init container runs alongside the sidecars started before it.
      initPeak = maxMaps(initPeak, addMaps(sidecars, own));
    }
  }
  total = maxMaps(addMaps(total, sidecars), initPeak);
  return addMaps(total, quantityMap(podSpec['overhead']));
}

/** Whether a pod still uses compute quota: not Succeeded or Failed, and not stuck past its deletion grace (QuotaV1Pod). */
export function podUsesCompute(pod: KubeObject, now: Date): boolean {
  const phase = isObject(pod['status']) ? pod['status']['phase'] : undefined;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const deletion = pod.metadata.deletionTimestamp;
  const grace = pod.metadata.deletionGracePeriodSeconds;
  if (deletion && typeof grace === 'number' && now.getTime() > Date.parse(deletion) + grace * 1000) return false;
  return true;
}

function isExtendedResource(name: string): boolean {
  return name.includes('/') && !name.startsWith('kubernetes.io/') && !name.startsWith('requests.');
}

function podUsage(pod: KubeObject, now: Date): QuantityMap {
  const usage: QuantityMap = new Map([['count/pods', ONE]]);
  if (!podUsesCompute(pod, now)) return usage;
  usage.set('pods', ONE);
  const requests = podResources(pod, 'requests');
  const limits = podResources(pod, 'limits');
  for (const name of STANDARD_COMPUTE) {
    const request = requests.get(name);
    const limit = limits.get(name);
    if (request) {
      usage.set(`requests.${name}`, request);
      if (name !== 'ephemeral-storage') usage.set(name, request);
    }
    if (limit) usage.set(`limits.${name}`, limit);
  }
  for (const [name, request] of requests) {
    if (name.startsWith('hugepages-')) {
      usage.set(name, request);
      usage.set(`requests.${name}`, request);
    } else if (isExtendedResource(name)) {
      // Extended resources are quota'd only as requests.<name> (their limit must equal the request).
      usage.set(`requests.${name}`, request);
    }
  }
  return usage;
}

function serviceUsage(service: KubeObject): QuantityMap {
  const usage: QuantityMap = new Map();
  const type = spec(service)['type'];
  if (type === 'LoadBalancer') usage.set('services.loadbalancers', ONE);
  if (type === 'NodePort' || type === 'LoadBalancer') {
    const ports = list(spec(service)['ports']).length;
    usage.set('services.nodeports', { nano: BigInt(ports) * ONE.nano, format: 'DecimalSI' });
  }
  return usage;
}

function claimUsage(claim: KubeObject): QuantityMap {
  const resources = isObject(spec(claim)['resources']) ? (spec(claim)['resources'] as Obj) : {};
  const storage = quantityMap(resources['requests']).get('storage');
  return storage ? new Map([['requests.storage', storage]]) : new Map();
}

/** The quota name counting objects of a kind: count/pods, count/deployments.apps. */
export function countName(kind: ResourceKind): string {
  return kind.group ? `count/${kind.plural}.${kind.group}` : `count/${kind.plural}`;
}

/** Everything one object uses, under every quota name that could limit it. */
export function objectUsage(kind: ResourceKind, object: KubeObject, now: Date): QuantityMap {
  let usage: QuantityMap = new Map([[countName(kind), ONE]]);
  if (kind.group === '' && LEGACY_COUNTS.has(kind.plural) && kind.plural !== 'pods') usage.set(kind.plural, ONE);
  if (kind.group !== '') return usage;
  if (kind.plural === 'pods') usage = podUsage(object, now);
  else if (kind.plural === 'services') usage = addMaps(usage, serviceUsage(object));
  else if (kind.plural === 'persistentvolumeclaims') usage = addMaps(usage, claimUsage(object));
  return usage;
}

/** The kinds a quota resource name counts: `count/deployments.apps` → deployments in apps; `requests.cpu` → pods. */
export function kindCounted(resource: string): ResourceKind | undefined {
  if (resource.startsWith('count/')) {
    const rest = resource.slice('count/'.length);
    const dot = rest.indexOf('.');
    return dot < 0 ? { group: '', plural: rest } : { group: rest.slice(dot + 1), plural: rest.slice(0, dot) };
  }
  if (LEGACY_COUNTS.has(resource)) return { group: '', plural: resource };
  if (resource.startsWith('services.')) return { group: '', plural: 'services' };
  if (resource === 'requests.storage' || resource.endsWith('.storageclass.storage.k8s.io/requests.storage'))
    return { group: '', plural: 'persistentvolumeclaims' };
  // cpu, memory, requests.*, limits.*, hugepages-*, ephemeral-storage: what pods use.
  return { group: '', plural: 'pods' };
}

/** Containers of a pod missing a request or limit a quota on compute resources needs ("must specify limits.cpu for: app"). */
export function missingDeclarations(pod: KubeObject, limited: Iterable<string>): string[] {
  const needed = [...limited].filter((name) => CONTAINER_DECLARED.includes(name)).sort();
  const messages: string[] = [];
  const containers = [...list(spec(pod)['containers']), ...list(spec(pod)['initContainers'])];
  for (const name of needed) {
    const kind = name.startsWith('limits.') ? 'limits' : 'requests';
    const resource = name.includes('.') ? name.slice(name.indexOf('.') + 1) : name;
    const missing = containers
      .filter((c) => !containerResources(c, kind).has(resource))
      .map((c) => String(c['name'] ?? ''))
      .sort();
    if (missing.length > 0) messages.push(`must specify ${name} for: ${[...new Set(missing)].join(',')}`);
  }
  return messages;
}

/** Usage masked to what a quota limits. */
export function limitedUsage(usage: QuantityMap, hard: QuantityMap): QuantityMap {
  return mask(usage, hard.keys());
}
