// rbac.authorization.k8s.io/v1: Role, ClusterRole, RoleBinding, ClusterRoleBinding, as
// Kubernetes defines them. A rule grants verbs on resources of API groups (optionally only
// named objects) or on non-resource URLs; a binding grants a role's rules to subjects.
import { atomicList, field, named, str, stringList, struct } from './builders.js';
import { kindSchema, LabelSelector } from './meta.js';

const RBAC = 'io.k8s.api.rbac.v1';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

export const PolicyRule = named(
  `${RBAC}.PolicyRule`,
  struct(
    'Actions a rule allows: verbs on resources of API groups, or verbs on non-resource URLs.',
    {
      verbs: stringList("Verbs the rule allows, e.g. get, list, create; '*' means every verb."),
      apiGroups: stringList('API groups of the resources; "" is the core group and \'*\' every group.'),
      resources: stringList(
        "Resources the rule applies to, e.g. pods, pods/log; '*' means every resource and '*/scale' the scale subresource of every resource.",
      ),
      resourceNames: stringList('When set, only objects with these names; requests without a name (list, create, watch) are never matched.'),
      nonResourceURLs: stringList(
        "Partial URLs such as /healthz or /apis/* (trailing '*' is a prefix match). Only in ClusterRoles bound by ClusterRoleBindings; never together with resources.",
      ),
    },
    ['verbs'],
  ),
);

export const Subject = named(
  `${RBAC}.Subject`,
  struct(
    'Who a binding grants its role to: a user, a group or a service account.',
    {
      kind: str('User, Group or ServiceAccount.'),
      apiGroup: str('"" for ServiceAccount; rbac.authorization.k8s.io for User and Group.'),
      name: str('Name of the subject.'),
      namespace: str("Namespace of a ServiceAccount; defaults to the RoleBinding's own namespace. Must be empty for User and Group."),
    },
    ['kind', 'name'],
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

export const RoleRef = named(
  `${RBAC}.RoleRef`,
  struct(
    'The role a binding grants.',
    {
      apiGroup: str('API group of the role: rbac.authorization.k8s.io.'),
      kind: str('Role or ClusterRole (ClusterRoleBindings: ClusterRole only).'),
      name: str('Name of the role.'),
    },
    ['apiGroup', 'kind', 'name'],
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

const AggregationRule = named(
  `${RBAC}.AggregationRule`,
  struct("How a ClusterRole's rules are gathered from other ClusterRoles.", {
    clusterRoleSelectors: atomicList(
      'ClusterRoles matching any of these selectors give their rules to this one. The server controls rules: edits to them are overwritten.',
      LabelSelector,
    ),
  }),
);

const rules = atomicList('The rules of the role.', PolicyRule);
const subjects = atomicList('The users, groups and service accounts the role is granted to.', Subject);

export const RoleSchema = kindSchema(
  { group: RBAC_GROUP, version: 'v1', kind: 'Role' },
  'A namespaced set of rules, granted by RoleBindings in the same namespace.',
  { rules },
);

export const ClusterRoleSchema = kindSchema(
  { group: RBAC_GROUP, version: 'v1', kind: 'ClusterRole' },
  'A cluster-wide set of rules, granted cluster-wide by ClusterRoleBindings or in one namespace by RoleBindings.',
  { rules, aggregationRule: field(AggregationRule, 'When set, the server fills rules from the ClusterRoles the selectors match.') },
);

export const RoleBindingSchema = kindSchema(
  { group: RBAC_GROUP, version: 'v1', kind: 'RoleBinding' },
  "Grants a Role or ClusterRole to subjects within the binding's namespace.",
  { subjects, roleRef: field(RoleRef, 'The role granted. Cannot be updated.') },
  ['roleRef'],
);

export const ClusterRoleBindingSchema = kindSchema(
  { group: RBAC_GROUP, version: 'v1', kind: 'ClusterRoleBinding' },
  'Grants a ClusterRole to subjects across the whole cluster.',
  { subjects, roleRef: field(RoleRef, 'The ClusterRole granted. Cannot be updated.') },
  ['roleRef'],
);
