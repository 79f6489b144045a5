// The audit policy: kube-apiserver's --audit-policy-file format (audit.k8s.io/v1 Policy, YAML or
// JSON), validated as kube-apiserver validates it, and its rules evaluated first-match as in
// k8s.io/apiserver/pkg/audit/policy/checker.go. A request no rule matches is not logged (None).
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import {
  LEVELS,
  STAGES,
  type AuditAttributes,
  type GroupResources,
  type Level,
  type Policy,
  type PolicyRule,
  type RequestAuditConfig,
  type Stage,
} from './types.js';

/** Without a policy file every request is logged at Metadata: who did what to which object, and the answer. */
export const DEFAULT_POLICY: Policy = { rules: [{ level: 'Metadata' }] };

export class PolicyError extends Error {}

export async function loadPolicyFile(path: string): Promise<Policy> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new PolicyError(`audit policy ${path}: ${(error as Error).message}`);
  }
  try {
    return parsePolicy(text);
  } catch (error) {
    throw new PolicyError(`audit policy ${path}: ${(error as Error).message}`);
  }
}

/** Parses and validates a Policy document; throws with every problem found, field by field. */
export function parsePolicy(text: string): Policy {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new PolicyError(`not YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  const errors: string[] = [];
  const policy = validatePolicy(document, errors);
  if (errors.length > 0) throw new PolicyError(errors.join('; '));
  return policy;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function stringList(value: unknown, field: string, errors: string[]): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    errors.push(`${field}: Invalid value: must be a list of strings`);
    return undefined;
  }
  return value as string[];
}

function stages(value: unknown, field: string, errors: string[]): Stage[] | undefined {
  const list = stringList(value, field, errors);
  for (const [i, stage] of (list ?? []).entries()) {
    if (!STAGES.includes(stage as Stage))
      errors.push(`${field}[${i}]: Unsupported value: "${stage}": supported values: ${STAGES.map((s) => `"${s}"`).join(', ')}`);
  }
  return list as Stage[] | undefined;
}

function optionalBoolean(value: unknown, field: string, errors: string[]): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') errors.push(`${field}: Invalid value: must be true or false`);
  return value === true;
}

function validatePolicy(document: unknown, errors: string[]): Policy {
  if (!isRecord(document)) {
    errors.push('must be an audit.k8s.io/v1 Policy object');
    return { rules: [] };
  }
  if (document['apiVersion'] !== 'audit.k8s.io/v1')
    errors.push(`apiVersion: Unsupported value: ${JSON.stringify(document['apiVersion'])}: supported values: "audit.k8s.io/v1"`);
  if (document['kind'] !== 'Policy') errors.push(`kind: Unsupported value: ${JSON.stringify(document['kind'])}: supported values: "Policy"`);
  const policy: Policy = { rules: [] };
  const omitStages = stages(document['omitStages'], 'omitStages', errors);
  if (omitStages) policy.omitStages = omitStages;
  const omitManagedFields = optionalBoolean(document['omitManagedFields'], 'omitManagedFields', errors);
  if (omitManagedFields !== undefined) policy.omitManagedFields = omitManagedFields;
  const rules = document['rules'];
  // kube-apiserver refuses a policy without rules: it would log nothing, surely not what was meant.
  if (!Array.isArray(rules) || rules.length === 0) errors.push('rules: Required value: a policy needs at least one rule');
  else for (const [i, rule] of rules.entries()) policy.rules.push(validateRule(rule, `rules[${i}]`, errors));
  return policy;
}

function validateRule(value: unknown, at: string, errors: string[]): PolicyRule {
  if (!isRecord(value)) {
    errors.push(`${at}: Invalid value: must be an object`);
    return { level: 'None' };
  }
  const known = new Set(['level', 'users', 'userGroups', 'verbs', 'resources', 'namespaces', 'nonResourceURLs', 'omitStages', 'omitManagedFields']);
  for (const key of Object.keys(value)) if (!known.has(key)) errors.push(`${at}.${key}: unknown field`);
  const level = value['level'];
  if (!LEVELS.includes(level as Level))
    errors.push(`${at}.level: Unsupported value: ${JSON.stringify(level)}: supported values: ${LEVELS.map((l) => `"${l}"`).join(', ')}`);
  const rule: PolicyRule = { level: level as Level };
  for (const field of ['users', 'userGroups', 'verbs', 'namespaces', 'nonResourceURLs'] as const) {
    const list = stringList(value[field], `${at}.${field}`, errors);
    if (list) rule[field] = list;
  }
  for (const [i, url] of (rule.nonResourceURLs ?? []).entries()) {
    if (url !== '*' && !url.startsWith('/')) errors.push(`${at}.nonResourceURLs[${i}]: Invalid value: "${url}": non-resource URL rules must begin with "/"`);
    else if (url.slice(0, -1).includes('*'))
      errors.push(`${at}.nonResourceURLs[${i}]: Invalid value: "${url}": non-resource URL wildcards ("*") must be the final character`);
  }
  if (value['resources'] !== undefined && value['resources'] !== null) {
    if (!Array.isArray(value['resources'])) errors.push(`${at}.resources: Invalid value: must be a list`);
    else rule.resources = value['resources'].map((gr, i) => validateGroupResources(gr, `${at}.resources[${i}]`, errors));
  }
  if (rule.nonResourceURLs?.length && (rule.resources?.length || rule.namespaces?.length)) {
    errors.push(`${at}.nonResourceURLs: Invalid value: rules cannot apply to both regular resources and non-resource URLs`);
  }
  const omitStages = stages(value['omitStages'], `${at}.omitStages`, errors);
  if (omitStages) rule.omitStages = omitStages;
  const omitManagedFields = optionalBoolean(value['omitManagedFields'], `${at}.omitManagedFields`, errors);
  if (omitManagedFields !== undefined) rule.omitManagedFields = omitManagedFields;
  return rule;
}

function validateGroupResources(value: unknown, at: string, errors: string[]): GroupResources {
  if (!isRecord(value)) {
    errors.push(`${at}: Invalid value: must be an object`);
    return {};
  }
  const group = value['group'] ?? '';
  if (typeof group !== 'string') errors.push(`${at}.group: Invalid value: must be a string`);
  const out: GroupResources = { group: String(group) };
  const resources = stringList(value['resources'], `${at}.resources`, errors);
  if (resources) out.resources = resources;
  const names = stringList(value['resourceNames'], `${at}.resourceNames`, errors);
  if (names) out.resourceNames = names;
  if (names?.length && !resources?.length) errors.push(`${at}.resourceNames: Invalid value: using resourceNames requires at least one resource`);
  for (const [i, resource] of (resources ?? []).entries()) {
    const [plural, sub, ...more] = resource.split('/');
    if (more.length > 0 || plural === '' || sub === '' || (plural === '*' && sub === '*')) {
      errors.push(`${at}.resources[${i}]: Invalid value: "${resource}": expected "resource", "resource/subresource", "*", "*/subresource" or "resource/*"`);
    }
  }
  return out;
}

/** The level and stages the first matching rule gives the request; None when none matches. */
export function evaluatePolicy(policy: Policy, attrs: AuditAttributes): RequestAuditConfig {
  for (const rule of policy.rules) {
    if (!ruleMatches(rule, attrs)) continue;
    return {
      level: rule.level,
      omitStages: new Set([...(policy.omitStages ?? []), ...(rule.omitStages ?? [])]),
      omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields ?? false,
    };
  }
  return { level: 'None', omitStages: new Set(), omitManagedFields: false };
}

export function ruleMatches(rule: PolicyRule, attrs: AuditAttributes): boolean {
  if (rule.users?.length && !rule.users.includes(attrs.user.username)) return false;
  if (rule.userGroups?.length && !attrs.user.groups.some((g) => rule.userGroups!.includes(g))) return false;
  if (rule.verbs?.length && !rule.verbs.includes(attrs.verb)) return false;
  if (rule.namespaces?.length || rule.resources?.length) return matchesResource(rule, attrs);
  if (rule.nonResourceURLs?.length) return matchesNonResource(rule.nonResourceURLs, attrs);
  return true;
}

function matchesResource(rule: PolicyRule, attrs: AuditAttributes): boolean {
  if (!attrs.resourceRequest) return false;
  if (rule.namespaces?.length && !rule.namespaces.includes(attrs.namespace)) return false;
  if (!rule.resources?.length) return true;
  const { apiGroup, resource, subresource, name } = attrs;
  const combined = subresource ? `${resource}/${subresource}` : resource;
  for (const gr of rule.resources) {
    if ((gr.group ?? '') !== apiGroup) continue;
    if (!gr.resources?.length) return true;
    if (gr.resourceNames?.length && !gr.resourceNames.includes(name)) continue;
    for (const pattern of gr.resources) {
      // "*" is every resource and every subresource, as in Kubernetes.
      if (pattern === combined || pattern === '*') return true;
      if (subresource && pattern === `*/${subresource}`) return true;
      if (pattern === `${resource}/*`) return true;
    }
  }
  return false;
}

function matchesNonResource(urls: string[], attrs: AuditAttributes): boolean {
  if (attrs.resourceRequest) return false;
  return urls.some((spec) => spec === '*' || spec === attrs.path || (spec.endsWith('*') && attrs.path.startsWith(spec.slice(0, -1))));
}
