// How the client addresses a kind of resource, and the built-in kinds. The table is written out
// rather than derived from src/api/registry.ts so that agents and controllers do not load the
// server's schemas; resources.test.ts checks it against the registry.
import { apiVersionOf, groupVersionPath } from '../api/group-version.js';
import type { KubeObject } from '../api/meta.js';

export interface ResourceRef {
  /** '' for the core group. */
  group: string;
  version: string;
  plural: string;
  namespaced: boolean;
  /** The kind of the objects, for apiVersion/kind defaults and event references. */
  kind: string;
}

const core = (plural: string, kind: string, namespaced = true): ResourceRef => ({ group: '', version: 'v1', plural, kind, namespaced });
const named = (group: string, plural: string, kind: string): ResourceRef => ({ group, version: 'v1', plural, kind, namespaced: true });

export const resources = {
  pods: core('pods', 'Pod'),
  nodes: core('nodes', 'Node', false),
  services: core('services', 'Service'),
  endpoints: core('endpoints', 'Endpoints'),
  configmaps: core('configmaps', 'ConfigMap'),
  secrets: core('secrets', 'Secret'),
  events: core('events', 'Event'),
  namespaces: core('namespaces', 'Namespace', false),
  serviceaccounts: core('serviceaccounts', 'ServiceAccount'),
  limitranges: core('limitranges', 'LimitRange'),
  resourcequotas: core('resourcequotas', 'ResourceQuota'),
  persistentvolumes: core('persistentvolumes', 'PersistentVolume', false),
  persistentvolumeclaims: core('persistentvolumeclaims', 'PersistentVolumeClaim'),
  storageclasses: { group: 'storage.k8s.io', version: 'v1', plural: 'storageclasses', kind: 'StorageClass', namespaced: false },
  deployments: named('apps', 'deployments', 'Deployment'),
  replicasets: named('apps', 'replicasets', 'ReplicaSet'),
  daemonsets: named('apps', 'daemonsets', 'DaemonSet'),
  statefulsets: named('apps', 'statefulsets', 'StatefulSet'),
  controllerrevisions: named('apps', 'controllerrevisions', 'ControllerRevision'),
  replicationcontrollers: core('replicationcontrollers', 'ReplicationController'),
  jobs: named('batch', 'jobs', 'Job'),
  cronjobs: named('batch', 'cronjobs', 'CronJob'),
  horizontalpodautoscalers: { ...named('autoscaling', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler'), version: 'v2' },
  leases: named('coordination.k8s.io', 'leases', 'Lease'),
  endpointslices: named('discovery.k8s.io', 'endpointslices', 'EndpointSlice'),
  poddisruptionbudgets: named('policy', 'poddisruptionbudgets', 'PodDisruptionBudget'),
  priorityclasses: { group: 'scheduling.k8s.io', version: 'v1', plural: 'priorityclasses', kind: 'PriorityClass', namespaced: false },
  transactions: named('drover.dev', 'transactions', 'Transaction'),
  pytorchjobs: named('kubeflow.org', 'pytorchjobs', 'PyTorchJob'),
  tfjobs: named('kubeflow.org', 'tfjobs', 'TFJob'),
  podgroups: { group: 'scheduling.x-k8s.io', version: 'v1alpha1', plural: 'podgroups', kind: 'PodGroup', namespaced: true },
  consistencyreports: { group: 'drover.dev', version: 'v1', plural: 'consistencyreports', kind: 'ConsistencyReport', namespaced: false },
  customresourcedefinitions: {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    plural: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    namespaced: false,
  },
} as const satisfies Record<string, ResourceRef>;

const byKind = new Map(Object.values(resources).map((ref) => [`${apiVersionOf(ref)}/${ref.kind}`, ref]));

export { apiVersionOf };

/** The built-in resource of an apiVersion + kind (an owner reference's target, say). */
export function resourceForKind(apiVersion: string, kind: string): ResourceRef | undefined {
  return byKind.get(`${apiVersion}/${kind}`);
}

/** The resource of an object, from its apiVersion and kind. */
export function resourceOf(object: Pick<KubeObject, 'apiVersion' | 'kind'>): ResourceRef | undefined {
  return resourceForKind(object.apiVersion, object.kind);
}

/**
 * The path of a collection (`name` undefined) or of one object, with an optional subresource.
 * A namespaced resource without a namespace addresses all namespaces (lists and watches only).
 */
export function resourcePath(ref: ResourceRef, namespace: string | undefined, name?: string, subresource?: string): string {
  let path = groupVersionPath(ref);
  if (ref.namespaced && namespace) path += `/namespaces/${encodeURIComponent(namespace)}`;
  path += `/${ref.plural}`;
  if (name !== undefined) path += `/${encodeURIComponent(name)}`;
  if (subresource !== undefined) path += `/${subresource}`;
  return path;
}
