// One RBAC rule and the question it answers: does it allow this request? Exactly Kubernetes'
// RuleAllows (pkg/apis/rbac/v1/evaluation_helpers.go): '*' matches any verb, group, resource or
// URL; 'pods/log' names a subresource and '*/scale' one subresource of every resource; a rule
// with resourceNames only allows requests that name one of them (so never a list or a create);
// a non-resource URL ending in '*' matches by prefix.
import type { RequestAttributes } from '../types.js';

/** A rule as the authorizer keeps it: every list present, possibly empty. */
export interface PolicyRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
  nonResourceURLs: string[];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** A stored rule (any JSON) in the authorizer's shape. */
export function normalizeRule(value: unknown): PolicyRule {
  const rule = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  return {
    verbs: strings(rule['verbs']),
    apiGroups: strings(rule['apiGroups']),
    resources: strings(rule['resources']),
    resourceNames: strings(rule['resourceNames']),
    nonResourceURLs: strings(rule['nonResourceURLs']),
  };
}

export function normalizeRules(value: unknown): PolicyRule[] {
  return Array.isArray(value) ? value.map(normalizeRule) : [];
}

/** The rule as a stored object writes it: empty lists left out, as Go's omitempty does. */
export function ruleToJson(rule: PolicyRule): Record<string, string[]> {
  const out: Record<string, string[]> = { verbs: rule.verbs };
  if (rule.apiGroups.length > 0) out['apiGroups'] = rule.apiGroups;
  if (rule.resources.length > 0) out['resources'] = rule.resources;
  if (rule.resourceNames.length > 0) out['resourceNames'] = rule.resourceNames;
  if (rule.nonResourceURLs.length > 0) out['nonResourceURLs'] = rule.nonResourceURLs;
  return out;
}

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === '*' || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return rule.apiGroups.some((g) => g === '*' || g === group);
}

/** `combined` is 'pods' or 'pods/log'; `subresource` is '' or 'log'. */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const resource of rule.resources) {
    if (resource === '*' || resource === combined) return true;
    // '*/scale' grants the scale subresource of every resource (and nothing else).
    if (subresource !== '' && resource.length === subresource.length + 2 && resource.startsWith('*/') && resource.endsWith(subresource)) return true;
  }
  return false;
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  return rule.resourceNames.length === 0 || rule.resourceNames.includes(name);
}

export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const url of rule.nonResourceURLs) {
    if (url === '*' || url === path) return true;
    if (url.endsWith('*') && path.startsWith(url.replace(/\*+$/, ''))) return true;
  }
  return false;
}

export function ruleAllows(attributes: RequestAttributes, rule: PolicyRule): boolean {
  if (!verbMatches(rule, attributes.verb)) return false;
  if (!attributes.resourceRequest) return nonResourceURLMatches(rule, attributes.path);
  const combined = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
  return apiGroupMatches(rule, attributes.apiGroup) && resourceMatches(rule, combined, attributes.subresource) && resourceNameMatches(rule, attributes.name);
}

export function sameRule(a: PolicyRule, b: PolicyRule): boolean {
  const same = (x: string[], y: string[]) => x.length === y.length && x.every((item, i) => item === y[i]);
  return (
    same(a.verbs, b.verbs) &&
    same(a.apiGroups, b.apiGroups) &&
    same(a.resources, b.resources) &&
    same(a.resourceNames, b.resourceNames) &&
    same(a.nonResourceURLs, b.nonResourceURLs)
  );
}
