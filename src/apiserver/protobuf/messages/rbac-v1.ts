// rbac.authorization.k8s.io/v1 roles and bindings (api/rbac/v1/generated.proto).
import { labelSelector, objectMeta } from './meta-v1.js';
import { message, msg, REP, str } from './schema.js';

const metadata = msg('metadata', objectMeta);

const policyRule = message('PolicyRule', {
  1: str('verbs', REP),
  2: str('apiGroups', REP),
  3: str('resources', REP),
  4: str('resourceNames', REP),
  5: str('nonResourceURLs', REP),
});

const subject = message('Subject', { 1: str('kind'), 2: str('apiGroup'), 3: str('name'), 4: str('namespace') });
const roleRef = message('RoleRef', { 1: str('apiGroup'), 2: str('kind'), 3: str('name') });

export const role = message('Role', { 1: metadata, 2: msg('rules', policyRule, REP) });

export const clusterRole = message('ClusterRole', {
  1: metadata,
  2: msg('rules', policyRule, REP),
  3: msg('aggregationRule', message('AggregationRule', { 1: msg('clusterRoleSelectors', labelSelector, REP) })),
});

export const roleBinding = message('RoleBinding', { 1: metadata, 2: msg('subjects', subject, REP), 3: msg('roleRef', roleRef) });

export const clusterRoleBinding = message('ClusterRoleBinding', {
  1: metadata,
  2: msg('subjects', subject, REP),
  3: msg('roleRef', roleRef),
});
