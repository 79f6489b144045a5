// Every built-in kind the API server serves, and lookups by the names clients use.
import type { TSchema } from '@sinclair/typebox';
import type { ResourceDefinition } from './resource.js';
import { coreDefinitions } from './definitions/core.js';
import { workloadDefinitions } from './definitions/workloads.js';
import { discoveryDefinitions } from './definitions/discovery.js';
import { droverDefinitions } from './definitions/drover.js';
import { reviewDefinitions } from './definitions/reviews.js';
import { trainingDefinitions } from './definitions/training.js';
import { rbacDefinitions } from './definitions/rbac.js';
import { certificatesDefinitions } from './definitions/certificates.js';
import { policyDefinitions } from './definitions/policy.js';
import { quotaDefinitions } from './definitions/quota.js';
import { schedulingDefinitions } from './definitions/scheduling.js';
import { apiextensionsDefinitions } from './definitions/apiextensions.js';
import { storageDefinitions } from './definitions/storage.js';
import { autoscalingDefinitions } from './definitions/autoscaling.js';
import { eventsDefinitions } from './definitions/events.js';
import { ScaleSchema } from './schemas/autoscaling.js';
import { BindingSchema, EvictionSchema } from './schemas/pod.js';
import { DeleteOptions, Status } from './schemas/meta.js';

export const resourceDefinitions: readonly ResourceDefinition[] = [
  ...coreDefinitions,
  ...workloadDefinitions,
  ...discoveryDefinitions,
  ...droverDefinitions,
  ...reviewDefinitions,
  ...trainingDefinitions,
  ...rbacDefinitions,
  ...certificatesDefinitions,
  ...policyDefinitions,
  ...quotaDefinitions,
  ...schedulingDefinitions,
  ...apiextensionsDefinitions,
  ...storageDefinitions,
  ...autoscalingDefinitions,
  ...eventsDefinitions,
];

/** A subresource as discovery lists it (`pods/binding`), with the kind its body has. */
export interface SubresourceDefinition {
  /** Plural of the parent resource, e.g. 'pods'. */
  resource: string;
  /** Group and version of the parent resource. */
  group: string;
  version: string;
  /** Subresource name, e.g. 'status', 'scale', 'binding'. */
  name: string;
  /** Group/version/kind of the request and response body. */
  kind: { group: string; version: string; kind: string };
  verbs: string[];
  /** Schema of the body when it is not the parent's own kind (Scale, Binding, Eviction). */
  schema?: TSchema;
}

function subresourcesOf(def: ResourceDefinition): SubresourceDefinition[] {
  const base = { resource: def.plural, group: def.group, version: def.version };
  const own = { group: def.group, version: def.version, kind: def.kind };
  const out: SubresourceDefinition[] = [];
  if (def.subresources.status) out.push({ ...base, name: 'status', kind: own, verbs: ['get', 'patch', 'update'] });
  // certificatesigningrequests/approval: the Approved and Denied conditions, nothing else.
  if (def.subresources.approval) out.push({ ...base, name: 'approval', kind: own, verbs: ['get', 'patch', 'update'] });
  if (def.subresources.scale) {
    out.push({ ...base, name: 'scale', kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'], schema: ScaleSchema });
  }
  return out;
}

const POD_EXTRAS: SubresourceDefinition[] = [
  {
    resource: 'pods',
    group: '',
    version: 'v1',
    name: 'binding',
    kind: { group: '', version: 'v1', kind: 'Binding' },
    verbs: ['create'],
    schema: BindingSchema,
  },
  {
    resource: 'pods',
    group: '',
    version: 'v1',
    name: 'eviction',
    kind: { group: 'policy', version: 'v1', kind: 'Eviction' },
    verbs: ['create'],
    schema: EvictionSchema,
  },
  { resource: 'pods', group: '', version: 'v1', name: 'log', kind: { group: '', version: 'v1', kind: 'Pod' }, verbs: ['get'] },
  { resource: 'pods', group: '', version: 'v1', name: 'exec', kind: { group: '', version: 'v1', kind: 'PodExecOptions' }, verbs: ['create', 'get'] },
  { resource: 'pods', group: '', version: 'v1', name: 'attach', kind: { group: '', version: 'v1', kind: 'PodAttachOptions' }, verbs: ['create', 'get'] },
  {
    resource: 'pods',
    group: '',
    version: 'v1',
    name: 'portforward',
    kind: { group: '', version: 'v1', kind: 'PodPortForwardOptions' },
    verbs: ['create', 'get'],
  },
  { resource: 'pods', group: '', version: 'v1', name: 'signal', kind: { group: '', version: 'v1', kind: 'Status' }, verbs: ['create'] },
  {
    resource: 'serviceaccounts',
    group: '',
    version: 'v1',
    name: 'token',
    kind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' },
    verbs: ['create'],
  },
  { resource: 'namespaces', group: '', version: 'v1', name: 'finalize', kind: { group: '', version: 'v1', kind: 'Namespace' }, verbs: ['update'] },
];

/** Every subresource, for discovery (`kubectl api-resources` lists none, but clients read them). */
export const subresourceDefinitions: readonly SubresourceDefinition[] = [...resourceDefinitions.flatMap(subresourcesOf), ...POD_EXTRAS];

/** The subresources of one resource: a built-in one's from the list above, a custom resource's from its definition. */
export function subresourcesFor(def: ResourceDefinition): SubresourceDefinition[] {
  if (findResource(def.group, def.version, def.plural) !== def) return subresourcesOf(def);
  return subresourceDefinitions.filter((sub) => sub.group === def.group && sub.version === def.version && sub.resource === def.plural);
}

export function findSubresource(group: string, version: string, resource: string, name: string): SubresourceDefinition | undefined {
  return subresourceDefinitions.find((s) => s.group === group && s.version === version && s.resource === resource && s.name === name);
}

/** Schemas of bodies that are not stored kinds. */
export const auxiliarySchemas = { Scale: ScaleSchema, Binding: BindingSchema, Eviction: EvictionSchema, Status, DeleteOptions };

const byResource = new Map(resourceDefinitions.map((def) => [`${def.group}/${def.version}/${def.plural}`, def]));
const byKind = new Map(resourceDefinitions.map((def) => [`${def.group}/${def.version}/${def.kind}`, def]));

export function findResource(group: string, version: string, plural: string): ResourceDefinition | undefined {
  return byResource.get(`${group}/${version}/${plural}`);
}

export function findByKind(group: string, version: string, kind: string): ResourceDefinition | undefined {
  return byKind.get(`${group}/${version}/${kind}`);
}

function matchesName(def: ResourceDefinition, name: string): boolean {
  return def.plural === name || def.singular === name || def.shortNames.includes(name) || def.kind.toLowerCase() === name;
}

/**
 * A resource by any name kubectl accepts: plural, singular, short name or lowercase kind,
 * optionally qualified by group or version.group (`deployments.apps`, `deploy.v1.apps`).
 */
export function findByAnyName(name: string): ResourceDefinition | undefined {
  const lower = name.toLowerCase();
  const direct = resourceDefinitions.find((def) => matchesName(def, lower));
  if (direct) return direct;
  const dot = lower.indexOf('.');
  if (dot < 0) return undefined;
  const head = lower.slice(0, dot);
  const rest = lower.slice(dot + 1);
  return resourceDefinitions.find(
    (def) => matchesName(def, head) && (rest === def.group || rest === `${def.version}.${def.group}` || (def.group === '' && rest === def.version)),
  );
}
