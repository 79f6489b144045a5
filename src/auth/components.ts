// The identities the components inside `drover server` use, as Kubernetes names its own: each
// is bound by RBAC to the least it needs, none is a superuser.
import type { Subject } from './pki/certificates.js';

/** Kubernetes' superuser group: cluster-admin is bound to it, and no RBAC object can take it away. */
export const MASTERS_GROUP = 'system:masters';

export const SCHEDULER_SUBJECT: Subject = { commonName: 'system:kube-scheduler' };
export const CONTROLLER_MANAGER_SUBJECT: Subject = { commonName: 'system:kube-controller-manager' };
export const DATA_CHECKER_USER = 'system:drover-data-checker';

/** Kubernetes' group whose members read /metrics and the health endpoints (the system:monitoring role). */
export const MONITORING_GROUP = 'system:monitoring';
/** Prometheus scraping the cluster (`--print-prometheus-config`): it reads /metrics and discovers its targets. */
export const PROMETHEUS_SUBJECT: Subject = { commonName: 'system:drover-prometheus', organizations: [MONITORING_GROUP] };
/** Where Prometheus asks the API server what to scrape (its HTTP service discovery). */
export const PROMETHEUS_TARGETS_PATH = '/prometheus/targets';

export const NODES_GROUP = 'system:nodes';
export const NODE_USER_PREFIX = 'system:node:';

/** An agent's identity: `system:node:<name>` in `system:nodes`, which the node authorizer knows. */
export function nodeSubject(nodeName: string): Subject {
  return { commonName: `${NODE_USER_PREFIX}${nodeName}`, organizations: [NODES_GROUP] };
}
