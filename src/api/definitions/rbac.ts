// ResourceDefinitions of rbac.authorization.k8s.io/v1. Kubernetes gives these kinds no short
// names and no categories. The authorizer that reads them is src/auth/rbac/.
import type { ResourceDefinition } from '../resource.js';
import { printerFor } from '../printers/index.js';
import { ClusterRoleBindingSchema, ClusterRoleSchema, RBAC_GROUP, RoleBindingSchema, RoleSchema } from '../schemas/rbac.js';
import { applyBindingDefaults, validateClusterRole, validateClusterRoleBinding, validateRole, validateRoleBinding } from '../validation/rbac-validation.js';
import { ALL_VERBS, noDefaults } from './helpers.js';

const base = { group: RBAC_GROUP, version: 'v1', shortNames: [], categories: [], verbs: ALL_VERBS, subresources: {}, fieldSelectors: {} };

const roles: ResourceDefinition = {
  ...base,
  kind: 'Role',
  listKind: 'RoleList',
  plural: 'roles',
  singular: 'role',
  namespaced: true,
  schema: RoleSchema,
  applyDefaults: noDefaults,
  validate: validateRole,
  table: printerFor('Role'),
};

const clusterRoles: ResourceDefinition = {
  ...base,
  kind: 'ClusterRole',
  listKind: 'ClusterRoleList',
  plural: 'clusterroles',
  singular: 'clusterrole',
  namespaced: false,
  schema: ClusterRoleSchema,
  applyDefaults: noDefaults,
  validate: validateClusterRole,
  table: printerFor('ClusterRole'),
};

const roleBindings: ResourceDefinition = {
  ...base,
  kind: 'RoleBinding',
  listKind: 'RoleBindingList',
  plural: 'rolebindings',
  singular: 'rolebinding',
  namespaced: true,
  schema: RoleBindingSchema,
  applyDefaults: applyBindingDefaults,
  validate: validateRoleBinding,
  table: printerFor('RoleBinding'),
};

const clusterRoleBindings: ResourceDefinition = {
  ...base,
  kind: 'ClusterRoleBinding',
  listKind: 'ClusterRoleBindingList',
  plural: 'clusterrolebindings',
  singular: 'clusterrolebinding',
  namespaced: false,
  schema: ClusterRoleBindingSchema,
  applyDefaults: applyBindingDefaults,
  validate: validateClusterRoleBinding,
  table: printerFor('ClusterRoleBinding'),
};

export const rbacDefinitions: readonly ResourceDefinition[] = [roles, clusterRoles, roleBindings, clusterRoleBindings];
