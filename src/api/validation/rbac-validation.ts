// Rules of rbac.authorization.k8s.io/v1 objects beyond the schema, as Kubernetes'
// pkg/apis/rbac/validation has them, with the same messages.
import { isObject, type FieldError, type KubeObject } from '../meta.js';
import { invalid, notSupported, required } from './field-errors.js';
import { isDns1123Subdomain, isPathSegmentName } from './name-rules.js';
import { validateLabels } from './object-meta.js';
import { arr, obj, objects, text, type Obj } from './util.js';
import { semanticEqual } from '../../util/json-equal.js';

import { RBAC_GROUP } from '../schemas/rbac.js';

function validateRule(rule: Obj, namespaced: boolean, at: string): FieldError[] {
  const errors: FieldError[] = [];
  if (arr(rule['verbs']).length === 0) errors.push(required(`${at}.verbs`, 'verbs must contain at least one value'));
  const urls = arr(rule['nonResourceURLs']);
  if (urls.length > 0) {
    if (namespaced) errors.push(invalid(`${at}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (arr(rule['apiGroups']).length > 0 || arr(rule['resources']).length > 0 || arr(rule['resourceNames']).length > 0) {
      errors.push(invalid(`${at}.nonResourceURLs`, urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errors;
  }
  if (arr(rule['apiGroups']).length === 0) errors.push(required(`${at}.apiGroups`, 'resource rules must supply at least one api group'));
  if (arr(rule['resources']).length === 0) errors.push(required(`${at}.resources`, 'resource rules must supply at least one resource'));
  return errors;
}

function validateRules(role: KubeObject, namespaced: boolean): FieldError[] {
  return objects(role['rules']).flatMap((rule, i) => validateRule(rule, namespaced, `rules[${i}]`));
}

export function validateRole(role: KubeObject): FieldError[] {
  return validateRules(role, true);
}

export function validateClusterRole(role: KubeObject): FieldError[] {
  const errors = validateRules(role, false);
  const aggregation = role['aggregationRule'];
  if (aggregation === undefined || aggregation === null) return errors;
  const selectors = objects(obj(aggregation)['clusterRoleSelectors']);
  const at = 'aggregationRule.clusterRoleSelectors';
  if (selectors.length === 0) errors.push(required(at, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  selectors.forEach((selector, i) => errors.push(...validateSelector(selector, `${at}[${i}]`)));
  return errors;
}

function validateSelector(selector: Obj, at: string): FieldError[] {
  const errors = validateLabels(selector['matchLabels'], `${at}.matchLabels`);
  objects(selector['matchExpressions']).forEach((expression, i) => {
    const path = `${at}.matchExpressions[${i}]`;
    const operator = text(expression['operator']);
    const values = arr(expression['values']);
    if ((operator === 'In' || operator === 'NotIn') && values.length === 0) {
      errors.push(required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    }
    if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length > 0) {
      errors.push(invalid(`${path}.values`, values, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    }
  });
  return errors;
}

function validateSubject(subject: Obj, namespaced: boolean, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const name = text(subject['name']);
  const apiGroup = text(subject['apiGroup']);
  if (name === '') errors.push(required(`${at}.name`));
  switch (subject['kind']) {
    case 'ServiceAccount':
      if (name !== '') for (const message of isDns1123Subdomain(name)) errors.push(invalid(`${at}.name`, name, message));
      if (apiGroup !== '') errors.push(notSupported(`${at}.apiGroup`, apiGroup, ['']));
      // A RoleBinding's service accounts default to its own namespace; a ClusterRoleBinding has none.
      if (!namespaced && text(subject['namespace']) === '') errors.push(required(`${at}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== RBAC_GROUP) errors.push(notSupported(`${at}.apiGroup`, apiGroup, [RBAC_GROUP]));
      break;
    default:
      errors.push(notSupported(`${at}.kind`, subject['kind'] ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return errors;
}

function validateBinding(binding: KubeObject, namespaced: boolean, old?: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const roleRef = obj(binding['roleRef']);
  const apiGroup = text(roleRef['apiGroup']);
  if (apiGroup !== RBAC_GROUP) errors.push(notSupported('roleRef.apiGroup', apiGroup, [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  const kind = text(roleRef['kind']);
  if (!kinds.includes(kind)) errors.push(notSupported('roleRef.kind', kind, kinds));
  const name = text(roleRef['name']);
  if (name === '') errors.push(required('roleRef.name'));
  else for (const message of isPathSegmentName(name)) errors.push(invalid('roleRef.name', name, message));
  objects(binding['subjects']).forEach((subject, i) => errors.push(...validateSubject(subject, namespaced, `subjects[${i}]`)));
  // A binding names who gets which role: giving the same subjects another role is a new binding.
  if (old && !semanticEqual(binding['roleRef'], old['roleRef'])) errors.push(invalid('roleRef', binding['roleRef'], 'cannot change roleRef'));
  return errors;
}

export function validateRoleBinding(binding: KubeObject, old?: KubeObject): FieldError[] {
  return validateBinding(binding, true, old);
}

export function validateClusterRoleBinding(binding: KubeObject, old?: KubeObject): FieldError[] {
  return validateBinding(binding, false, old);
}

/** Kubernetes' v1 defaulters: the API group of a role reference and of User and Group subjects. */
export function applyBindingDefaults(binding: KubeObject): void {
  const roleRef = binding['roleRef'];
  if (isObject(roleRef) && (roleRef['apiGroup'] === undefined || roleRef['apiGroup'] === '')) roleRef['apiGroup'] = RBAC_GROUP;
  for (const subject of objects(binding['subjects'])) {
    if (subject['apiGroup'] !== undefined && subject['apiGroup'] !== '') continue;
    // A ServiceAccount's group is "", which Kubernetes leaves out of the object.
    if (subject['kind'] === 'User' || subject['kind'] === 'Group') subject['apiGroup'] = RBAC_GROUP;
  }
}
