// Whether one set of rules grants everything another does (Kubernetes' validation.Covers):
// the question behind escalation prevention ("may this user grant these rules?") and behind
// reconciling the default roles ("which default rules has this role lost?").
import type { PolicyRule } from './rules.js';

function rule(partial: Partial<PolicyRule>): PolicyRule {
  return { verbs: [], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [], ...partial };
}

/** A rule split into rules of one verb × group × resource (× name), or one verb × URL. */
export function breakdownRule(r: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of r.apiGroups) {
    for (const resource of r.resources) {
      for (const verb of r.verbs) {
        if (r.resourceNames.length === 0) out.push(rule({ apiGroups: [group], resources: [resource], verbs: [verb] }));
        else for (const name of r.resourceNames) out.push(rule({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] }));
      }
    }
  }
  for (const url of r.nonResourceURLs) for (const verb of r.verbs) out.push(rule({ nonResourceURLs: [url], verbs: [verb] }));
  return out;
}

function hasAll(set: string[], items: string[]): boolean {
  return items.every((item) => set.includes(item));
}

function resourcesCovered(owner: string[], wanted: string[]): boolean {
  if (owner.includes('*') || hasAll(owner, wanted)) return true;
  // 'pods/log' is covered by '*/log' as well.
  return wanted.every((path) => {
    if (owner.includes(path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && owner.includes(`*/${path.slice(slash + 1)}`);
  });
}

function urlCovered(owner: string, wanted: string): boolean {
  return owner === wanted || (owner.endsWith('*') && wanted.startsWith(owner.replace(/\*+$/, '')));
}

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = owner.verbs.includes('*') || hasAll(owner.verbs, sub.verbs);
  const groups = owner.apiGroups.includes('*') || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourcesCovered(owner.resources, sub.resources);
  const urls = sub.nonResourceURLs.every((wanted) => owner.nonResourceURLs.some((o) => urlCovered(o, wanted)));
  const names =
    sub.resourceNames.length === 0 ? owner.resourceNames.length === 0 : owner.resourceNames.length === 0 || hasAll(owner.resourceNames, sub.resourceNames);
  return verbs && groups && resources && urls && names;
}

/** The broken-down rules of `wanted` that no rule of `owner` covers (empty: owner covers all). */
export function uncoveredRules(owner: readonly PolicyRule[], wanted: readonly PolicyRule[]): PolicyRule[] {
  return wanted.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
}

/** Rules of one group and resource (and at most one name) that differ only by verb, merged. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const simple = new Map<string, PolicyRule>();
  const out: PolicyRule[] = [];
  for (const r of rules) {
    const isSimple = r.apiGroups.length === 1 && r.resources.length === 1 && r.resourceNames.length <= 1 && r.nonResourceURLs.length === 0;
    if (!isSimple) {
      out.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups[0], r.resources[0], r.resourceNames[0] ?? null]);
    const existing = simple.get(key);
    if (existing) existing.verbs.push(...r.verbs);
    else simple.set(key, { ...r, verbs: [...r.verbs] });
  }
  return [...out, ...simple.values()];
}

function goQuoted(items: string[]): string {
  return `[${items.map((item) => JSON.stringify(item)).join(' ')}]`;
}

/** As rbacv1helpers.CompactString: {APIGroups:["apps"], Resources:["deployments"], Verbs:["create"]}. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if (r.apiGroups.length > 0) parts.push(`APIGroups:${goQuoted(r.apiGroups)}`);
  if (r.resources.length > 0) parts.push(`Resources:${goQuoted(r.resources)}`);
  if (r.nonResourceURLs.length > 0) parts.push(`NonResourceURLs:${goQuoted(r.nonResourceURLs)}`);
  if (r.resourceNames.length > 0) parts.push(`ResourceNames:${goQuoted(r.resourceNames)}`);
  if (r.verbs.length > 0) parts.push(`Verbs:${goQuoted(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}

export { goQuoted };
