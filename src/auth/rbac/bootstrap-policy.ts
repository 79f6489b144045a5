// The roles and bindings every cluster starts with, as kube-apiserver's RBAC bootstrap policy
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go), cut to the resources Drover
// serves and extended with Drover's own (Transactions, pods/signal) and the training kinds,
// which join admin/edit/view as Kubeflow's aggregated roles add them.
//
// The user-facing roles admin, edit and view hold no rules of their own: they aggregate the
// system:aggregate-to-* roles (and each other: view → edit → admin), so a cluster operator
// extends them by labelling a ClusterRole, exactly as in Kubernetes.
import {
  CONTROLLER_MANAGER_SUBJECT,
  DATA_CHECKER_USER,
  MONITORING_GROUP,
  PROMETHEUS_SUBJECT,
  PROMETHEUS_TARGETS_PATH,
  SCHEDULER_SUBJECT,
} from '../components.js';
import { BOOTSTRAPPERS_GROUP } from '../authn/bootstrap-token.js';
import type { KubeObject } from '../../api/meta.js';

export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';
const BOOTSTRAP_LABELS = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const RBAC = 'rbac.authorization.k8s.io';
const API_VERSION = `${RBAC}/v1`;

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'];
const READ_WRITE = [...READ, ...WRITE];

export const AGGREGATE_TO = {
  admin: `${RBAC}/aggregate-to-admin`,
  edit: `${RBAC}/aggregate-to-edit`,
  view: `${RBAC}/aggregate-to-view`,
};

interface Rule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  nonResourceURLs?: string[];
}

function rule(verbs: string[], group: string, ...resources: string[]): Rule {
  return { verbs, apiGroups: [group], resources };
}

function urls(verbs: string[], ...nonResourceURLs: string[]): Rule {
  return { verbs, nonResourceURLs };
}

function clusterRole(name: string, rules: Rule[] | undefined, labels: Record<string, string> = {}, aggregateFrom?: string): KubeObject {
  const role: KubeObject = {
    apiVersion: API_VERSION,
    kind: 'ClusterRole',
    metadata: { name, labels: { ...BOOTSTRAP_LABELS, ...labels }, annotations: { [AUTOUPDATE_ANNOTATION]: 'true' } },
  };
  if (rules) role['rules'] = rules;
  if (aggregateFrom) role['aggregationRule'] = { clusterRoleSelectors: [{ matchLabels: { [aggregateFrom]: 'true' } }] };
  return role;
}

function clusterRoleBinding(role: string, subjects: Array<{ kind: 'User' | 'Group'; name: string }>): KubeObject {
  return {
    apiVersion: API_VERSION,
    kind: 'ClusterRoleBinding',
    metadata: { name: role, labels: { ...BOOTSTRAP_LABELS }, annotations: { [AUTOUPDATE_ANNOTATION]: 'true' } },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
    subjects: subjects.map((s) => ({ apiGroup: RBAC, ...s })),
  };
}

// Every apps/v1 resource and subresource Drover serves: view reads them all, the controllers write them all.
const APPS_RESOURCES = [
  'daemonsets',
  'daemonsets/status',
  'deployments',
  'deployments/status',
  'deployments/scale',
  'replicasets',
  'replicasets/status',
  'replicasets/scale',
  'statefulsets',
  'statefulsets/status',
  'statefulsets/scale',
  'controllerrevisions',
];

// Read access everywhere in a namespace except Secrets (reading a Secret can be reading a
// token with more power than view), and nothing that changes anything.
const VIEW_RULES: Rule[] = [
  rule(READ, '', 'pods', 'serviceaccounts', 'services', 'services/status', 'endpoints', 'configmaps'),
  rule(READ, '', 'events', 'pods/status', 'namespaces/status', 'pods/log'),
  rule(READ, 'events.k8s.io', 'events'),
  // Reading namespaces in a namespace reads that namespace: it tells users where they have access.
  rule(READ, '', 'namespaces'),
  rule(READ, 'discovery.k8s.io', 'endpointslices'),
  rule(READ, 'apps', ...APPS_RESOURCES),
  rule(READ, '', 'replicationcontrollers', 'replicationcontrollers/status', 'replicationcontrollers/scale'),
  rule(READ, 'batch', 'jobs', 'jobs/status', 'cronjobs', 'cronjobs/status'),
  rule(READ, 'policy', 'poddisruptionbudgets', 'poddisruptionbudgets/status'),
  rule(READ, 'kubeflow.org', 'pytorchjobs', 'pytorchjobs/status', 'tfjobs', 'tfjobs/status'),
  rule(READ, 'scheduling.x-k8s.io', 'podgroups', 'podgroups/status'),
  rule(READ, 'drover.dev', 'transactions', 'transactions/status'),
  rule(READ, '', 'limitranges', 'resourcequotas', 'resourcequotas/status'),
  rule(READ, '', 'persistentvolumeclaims', 'persistentvolumeclaims/status'),
  rule(READ, 'autoscaling', 'horizontalpodautoscalers', 'horizontalpodautoscalers/status'),
  // Kubernetes' system:aggregated-metrics-reader; history is Drover's (resource-metrics/metrics-api.ts).
  rule(READ, 'metrics.k8s.io', 'pods', 'nodes', 'pods/history', 'nodes/history'),
];

// Writing workloads and their configuration, Secrets included; running things in pods. Not
// status (the controllers' own), not roles or bindings, not namespaces or quotas.
const EDIT_RULES: Rule[] = [
  rule(READ, '', 'pods/attach', 'pods/exec', 'pods/portforward', 'secrets'),
  rule(['impersonate'], '', 'serviceaccounts'),
  rule(WRITE, '', 'pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/signal'),
  rule(['create'], '', 'pods/eviction'),
  rule(WRITE, '', 'serviceaccounts', 'services', 'configmaps', 'secrets', 'events', 'persistentvolumeclaims'),
  rule(WRITE, 'apps', 'daemonsets', 'deployments', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale'),
  rule(WRITE, '', 'replicationcontrollers', 'replicationcontrollers/scale'),
  rule(WRITE, 'batch', 'jobs', 'cronjobs'),
  rule(WRITE, 'autoscaling', 'horizontalpodautoscalers'),
  rule(WRITE, 'policy', 'poddisruptionbudgets'),
  rule(WRITE, 'kubeflow.org', 'pytorchjobs', 'tfjobs'),
  rule(WRITE, 'scheduling.x-k8s.io', 'podgroups'),
  rule(WRITE, 'drover.dev', 'transactions'),
];

// A namespace's administrator: edit plus granting access within the namespace.
const ADMIN_RULES: Rule[] = [rule(['create'], 'authorization.k8s.io', 'localsubjectaccessreviews'), rule(READ_WRITE, RBAC, 'roles', 'rolebindings')];

const PUBLIC_INFO_URLS = ['/livez', '/readyz', '/healthz', '/version', '/version/'];

// A joining agent's join token: it may ask for its client certificate, and nothing else.
const NODE_BOOTSTRAPPER_RULES: Rule[] = [rule(['create', 'get', 'list', 'watch'], 'certificates.k8s.io', 'certificatesigningrequests')];

export function defaultClusterRoles(): KubeObject[] {
  return [
    clusterRole('cluster-admin', [rule(['*'], '*', '*'), urls(['*'], '*')]),
    clusterRole('admin', undefined, {}, AGGREGATE_TO.admin),
    clusterRole('edit', undefined, { [AGGREGATE_TO.admin]: 'true' }, AGGREGATE_TO.edit),
    clusterRole('view', undefined, { [AGGREGATE_TO.edit]: 'true' }, AGGREGATE_TO.view),
    clusterRole('system:aggregate-to-admin', ADMIN_RULES, { [AGGREGATE_TO.admin]: 'true' }),
    clusterRole('system:aggregate-to-edit', EDIT_RULES, { [AGGREGATE_TO.edit]: 'true' }),
    clusterRole('system:aggregate-to-view', VIEW_RULES, { [AGGREGATE_TO.view]: 'true' }),
    clusterRole('system:discovery', [urls(['get'], ...PUBLIC_INFO_URLS, '/api', '/api/*', '/apis', '/apis/*', '/openapi', '/openapi/*')]),
    clusterRole('system:basic-user', [
      rule(['create'], 'authorization.k8s.io', 'selfsubjectaccessreviews', 'selfsubjectrulesreviews'),
      rule(['create'], 'authentication.k8s.io', 'selfsubjectreviews'),
    ]),
    clusterRole('system:public-info-viewer', [urls(['get'], ...PUBLIC_INFO_URLS)]),
    clusterRole('system:monitoring', [urls(['get'], '/metrics', '/metrics/slis', '/livez', '/livez/*', '/readyz', '/readyz/*', '/healthz', '/healthz/*')]),
    ...COMPONENT_ROLES.map((role) => clusterRole(role.name, role.rules)),
    clusterRole('system:node-bootstrapper', NODE_BOOTSTRAPPER_RULES),
  ];
}

// The components inside `drover server`, each under its own name (src/auth/components.ts), each
// with what it touches and no more. One identity runs all the controllers: it holds the union of
// what Kubernetes' per-controller roles would, cut to the resources the controllers read and
// write — never `*/*` as Kubernetes' garbage collector holds; custom resources come through
// CUSTOM_RESOURCE_CONTROLLERS_ROLE.
const ALL = ['*'];

/** Kept by the API servers from the established CRDs (apiserver/crd/controller-access.ts); bound to the controllers. */
export const CUSTOM_RESOURCE_CONTROLLERS_ROLE = 'system:controller:custom-resources';
const COMPONENT_ROLES: Array<{ name: string; user: string; rules: Rule[] }> = [
  {
    name: 'system:kube-scheduler',
    user: SCHEDULER_SUBJECT.commonName,
    rules: [
      rule(READ, '', 'pods', 'nodes', 'namespaces'),
      rule(['create'], '', 'pods/binding'),
      rule(['update', 'patch'], '', 'pods/status'),
      // Preemption deletes the victims; their disruption budgets rank the candidate nodes.
      rule(['delete'], '', 'pods'),
      rule(READ, 'policy', 'poddisruptionbudgets'),
      rule(READ, 'scheduling.x-k8s.io', 'podgroups'),
      rule(['update', 'patch'], 'scheduling.x-k8s.io', 'podgroups/status'),
      // VolumeBinding: claims, their volumes and classes; a late-binding claim is annotated with the chosen node.
      rule([...READ, 'update', 'patch'], '', 'persistentvolumeclaims'),
      rule(READ, '', 'persistentvolumes'),
      rule(READ, 'storage.k8s.io', 'storageclasses'),
      rule(['create', 'update', 'patch'], '', 'events'),
      rule([...READ, 'create', 'update', 'patch'], 'coordination.k8s.io', 'leases'),
    ],
  },
  {
    // The workload controllers, the garbage collector, endpoints, service accounts, node lifecycle.
    name: 'system:kube-controller-manager',
    user: CONTROLLER_MANAGER_SUBJECT.commonName,
    rules: [
      rule(ALL, '', 'pods', 'pods/status', 'services', 'services/status', 'endpoints', 'configmaps', 'serviceaccounts', 'events'),
      rule([...READ, 'update', 'patch'], '', 'nodes', 'nodes/status', 'namespaces'),
      rule(['create'], '', 'pods/eviction'),
      // The resource quota controller: it recalculates status.used.
      rule([...READ, 'update', 'patch'], '', 'resourcequotas', 'resourcequotas/status'),
      rule(ALL, 'apps', ...APPS_RESOURCES),
      rule(ALL, '', 'replicationcontrollers', 'replicationcontrollers/status', 'replicationcontrollers/scale'),
      rule(ALL, 'batch', 'jobs', 'jobs/status', 'cronjobs', 'cronjobs/status'),
      rule(ALL, 'policy', 'poddisruptionbudgets', 'poddisruptionbudgets/status'),
      // The HPA controller: it reads the pods' figures and scales through the scale subresource.
      rule(ALL, 'autoscaling', 'horizontalpodautoscalers', 'horizontalpodautoscalers/status'),
      rule(READ, 'metrics.k8s.io', 'pods'),
      // Any kind with a scale subresource may be an autoscaling target, custom resources too.
      rule(['get', 'update', 'patch'], '*', '*/scale'),
      rule(ALL, 'discovery.k8s.io', 'endpointslices'),
      rule(ALL, 'kubeflow.org', 'pytorchjobs', 'pytorchjobs/status', 'tfjobs', 'tfjobs/status'),
      // The resource quota controller counts Secrets (list, watch, as Kubernetes' own does) and the
      // garbage collector looks up a Secret that owns objects (get); nothing here writes them.
      rule(READ, '', 'secrets'),
      // The garbage collector follows custom resources: it watches their CRDs here, the resources
      // themselves through CUSTOM_RESOURCE_CONTROLLERS_ROLE.
      rule(READ, 'apiextensions.k8s.io', 'customresourcedefinitions'),
      rule(ALL, 'scheduling.x-k8s.io', 'podgroups', 'podgroups/status'),
      rule(ALL, 'drover.dev', 'transactions', 'transactions/status'),
      rule(ALL, 'coordination.k8s.io', 'leases'),
      // The volume binder, the local-path provisioner and the protection controllers.
      rule(ALL, '', 'persistentvolumes', 'persistentvolumes/status', 'persistentvolumeclaims', 'persistentvolumeclaims/status'),
      rule(READ, 'storage.k8s.io', 'storageclasses'),
    ],
  },
  {
    // Reads what it checks; its repairs delete or mark pods, and it writes its reports.
    name: 'system:drover-data-checker',
    user: DATA_CHECKER_USER,
    rules: [
      // Every kind the garbage collector follows (COLLECTED_RESOURCES), for the dangling-owner check.
      rule(
        READ,
        '',
        'pods',
        'nodes',
        'services',
        'endpoints',
        'configmaps',
        'namespaces',
        'events',
        'serviceaccounts',
        'replicationcontrollers',
        'persistentvolumeclaims',
      ),
      rule(['delete', 'update', 'patch'], '', 'pods', 'pods/status'),
      // Owners of any workload kind are looked up to tell orphans from owned objects.
      rule(READ, 'apps', '*'),
      rule(READ, 'batch', '*'),
      rule(READ, 'kubeflow.org', '*'),
      rule(READ, 'discovery.k8s.io', 'endpointslices'),
      rule(READ, 'scheduling.x-k8s.io', 'podgroups'),
      rule(READ, 'drover.dev', 'transactions'),
      rule(ALL, 'drover.dev', 'consistencyreports', 'consistencyreports/status'),
      rule(['create', 'update', 'patch'], '', 'events'),
      rule(ALL, 'coordination.k8s.io', 'leases'),
    ],
  },
  {
    // Prometheus: where to scrape (its HTTP service discovery, src/apiserver/prometheus-targets.ts);
    // /metrics itself it reads as a member of system:monitoring.
    name: 'system:drover-prometheus',
    user: PROMETHEUS_SUBJECT.commonName,
    rules: [urls(['get'], `${PROMETHEUS_TARGETS_PATH}/*`)],
  },
];

export function defaultClusterRoleBindings(): KubeObject[] {
  return [
    ...COMPONENT_ROLES.map((role) => clusterRoleBinding(role.name, [{ kind: 'User', name: role.user }])),
    clusterRoleBinding(CUSTOM_RESOURCE_CONTROLLERS_ROLE, [{ kind: 'User', name: CONTROLLER_MANAGER_SUBJECT.commonName }]),
    clusterRoleBinding('system:node-bootstrapper', [{ kind: 'Group', name: BOOTSTRAPPERS_GROUP }]),
    clusterRoleBinding('cluster-admin', [{ kind: 'Group', name: 'system:masters' }]),
    clusterRoleBinding('system:discovery', [{ kind: 'Group', name: 'system:authenticated' }]),
    clusterRoleBinding('system:basic-user', [{ kind: 'Group', name: 'system:authenticated' }]),
    clusterRoleBinding('system:monitoring', [{ kind: 'Group', name: MONITORING_GROUP }]),
    clusterRoleBinding('system:public-info-viewer', [
      { kind: 'Group', name: 'system:authenticated' },
      { kind: 'Group', name: 'system:unauthenticated' },
    ]),
  ];
}
