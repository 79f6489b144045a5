// Where each kind the dashboard shows lives in the API (all namespaces).
export const PATHS = {
  nodes: '/api/v1/nodes',
  pods: '/api/v1/pods',
  events: '/api/v1/events',
  configmaps: '/api/v1/configmaps',
  deployments: '/apis/apps/v1/deployments',
  replicasets: '/apis/apps/v1/replicasets',
  daemonsets: '/apis/apps/v1/daemonsets',
  jobs: '/apis/batch/v1/jobs',
  pytorchjobs: '/apis/kubeflow.org/v1/pytorchjobs',
  tfjobs: '/apis/kubeflow.org/v1/tfjobs',
  podgroups: '/apis/scheduling.x-k8s.io/v1alpha1/podgroups',
  transactions: '/apis/drover.dev/v1/transactions',
} as const;

/** The URL of one object of the kind whose collection is `collection` (e.g. PATHS.deployments). */
export function objectPath(collection: string, namespace: string | undefined, name: string): string {
  const [, prefix, version, plural] = /^(\/api|\/apis\/[^/]+)\/([^/]+)\/([^/]+)$/.exec(collection) ?? [];
  const ns = namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${prefix}/${version}${ns}/${plural}/${encodeURIComponent(name)}`;
}
