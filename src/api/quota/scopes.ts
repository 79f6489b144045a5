// Which objects a ResourceQuota counts: its scopes (and scopeSelector expressions) all have to
// match. Scopes describe pods only, so a scoped quota counts pods and nothing else, as in
// Kubernetes.
import { isObject, type KubeObject } from '../meta.js';
import { qosClassOf } from '../defaults/pod-defaults.js';
import type { ResourceKind } from './usage.js';

type Obj = Record<string, unknown>;

interface ScopeRequirement {
  scope: string;
  operator: string;
  values: string[];
}

function requirements(quota: KubeObject): ScopeRequirement[] {
  const spec = isObject(quota['spec']) ? quota['spec'] : {};
  const out: ScopeRequirement[] = [];
  for (const scope of Array.isArray(spec['scopes']) ? spec['scopes'] : []) {
    if (typeof scope === 'string') out.push({ scope, operator: 'Exists', values: [] });
  }
  const selector = isObject(spec['scopeSelector']) ? spec['scopeSelector'] : {};
  for (const expression of Array.isArray(selector['matchExpressions']) ? selector['matchExpressions'] : []) {
    if (!isObject(expression)) continue;
    const values = Array.isArray(expression['values']) ? expression['values'].map(String) : [];
    out.push({ scope: String(expression['scopeName'] ?? ''), operator: String(expression['operator'] ?? ''), values });
  }
  return out;
}

function podSpec(pod: KubeObject): Obj {
  return isObject(pod['spec']) ? pod['spec'] : {};
}

/** Whether a pod has pod affinity terms that reach other namespaces. */
function crossNamespaceAffinity(pod: KubeObject): boolean {
  const affinity = isObject(podSpec(pod)['affinity']) ? (podSpec(pod)['affinity'] as Obj) : {};
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const rules = isObject(affinity[kind]) ? (affinity[kind] as Obj) : {};
    const required = Array.isArray(rules['requiredDuringSchedulingIgnoredDuringExecution']) ? rules['requiredDuringSchedulingIgnoredDuringExecution'] : [];
    const preferred = Array.isArray(rules['preferredDuringSchedulingIgnoredDuringExecution']) ? rules['preferredDuringSchedulingIgnoredDuringExecution'] : [];
    const terms = [...required, ...preferred.map((p) => (isObject(p) ? p['podAffinityTerm'] : undefined))].filter(isObject);
    if (terms.some((term) => (Array.isArray(term['namespaces']) && term['namespaces'].length > 0) || term['namespaceSelector'] !== undefined)) return true;
  }
  return false;
}

function matches(requirement: ScopeRequirement, pod: KubeObject): boolean {
  const spec = podSpec(pod);
  switch (requirement.scope) {
    case 'Terminating':
      return typeof spec['activeDeadlineSeconds'] === 'number' && spec['activeDeadlineSeconds'] >= 0;
    case 'NotTerminating':
      return !(typeof spec['activeDeadlineSeconds'] === 'number' && spec['activeDeadlineSeconds'] >= 0);
    case 'BestEffort':
      return qosClassOf(spec) === 'BestEffort';
    case 'NotBestEffort':
      return qosClassOf(spec) !== 'BestEffort';
    case 'CrossNamespacePodAffinity':
      return crossNamespaceAffinity(pod);
    case 'PriorityClass': {
      const name = typeof spec['priorityClassName'] === 'string' ? spec['priorityClassName'] : '';
      switch (requirement.operator) {
        case 'In':
          return requirement.values.includes(name);
        case 'NotIn':
          return !requirement.values.includes(name);
        case 'Exists':
          return name !== '';
        case 'DoesNotExist':
          return name === '';
        default:
          return false;
      }
    }
    default:
      return false;
  }
}

/** Whether a quota counts this object. */
export function quotaCounts(quota: KubeObject, kind: ResourceKind, object: KubeObject): boolean {
  const needed = requirements(quota);
  if (needed.length === 0) return true;
  if (kind.group !== '' || kind.plural !== 'pods') return false;
  return needed.every((requirement) => {
    const matched = matches(requirement, object);
    // DoesNotExist/NotIn on the boolean scopes read as "not this scope".
    return requirement.scope !== 'PriorityClass' && requirement.operator === 'DoesNotExist' ? !matched : matched;
  });
}
