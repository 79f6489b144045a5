// Validation entry points for the API server: the schema walk (types, enums, unknown fields)
// and validateObject (metadata rules + the kind's own rules).
import type { FieldError, KubeObject } from '../meta.js';
import type { ResourceDefinition } from '../resource.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';
import type { NameRule } from './name-rules.js';

export { checkSchema, type CheckOptions, type CheckResult } from './check-schema.js';
export { validateBinding } from './core-validation.js';
export { parseQuantity } from './quantity.js';

/** Names are DNS subdomains except where Kubernetes asks for a label (they become DNS names). */
const NAME_RULES: Record<string, NameRule> = {
  Namespace: 'dns1123-label',
  Service: 'dns1035-label',
  // RBAC objects are named after users and roles (system:aggregate-to-edit).
  Role: 'path-segment',
  ClusterRole: 'path-segment',
  RoleBinding: 'path-segment',
  ClusterRoleBinding: 'path-segment',
};

export function nameRuleFor(kind: string): NameRule {
  return NAME_RULES[kind] ?? 'dns1123-subdomain';
}

/**
 * Metadata rules (name, generateName, namespace, labels, annotations, finalizers, owners, and
 * immutable metadata on update) followed by the kind's own rules. `old` is set on update.
 */
export function validateObject(def: ResourceDefinition, object: KubeObject, old?: KubeObject): FieldError[] {
  const errors = validateObjectMeta(object.metadata ?? {}, { namespaced: def.namespaced, nameRule: nameRuleFor(def.kind) });
  if (old) errors.push(...validateObjectMetaUpdate(object.metadata ?? {}, old.metadata ?? {}));
  errors.push(...def.validate(object, old));
  return errors;
}
