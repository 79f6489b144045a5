// The RBAC authorizer, as Kubernetes' (plugin/pkg/auth/authorizer/rbac): a request is allowed
// when any rule of any role bound to the user allows it. ClusterRoleBindings count everywhere;
// RoleBindings only in their own namespace, whether they name a Role of that namespace or a
// ClusterRole. RBAC never denies outright: a request no rule allows is left to the next
// authorizer, so `allowed: false` here means "no opinion".
import type { Store } from '../../storage/store.js';
import type { Authorizer, Decision, NonResourceRule, RequestAttributes, ResourceRule, RuleLister, UserInfo } from '../types.js';
import { RbacCache } from './cache.js';
import { DecisionCache } from './decision-cache.js';
import { ruleAllows, type PolicyRule } from './rules.js';
import { appliesTo, describeBinding, type Binding, type RoleRef } from './subjects.js';

/** Called with each rule the user holds and where it comes from; return false to stop. */
export type RuleVisitor = (source: string, rule: PolicyRule) => boolean;

export interface RbacAuthorizer extends Authorizer, RuleLister {
  /** Fills the cache; authorize() before it resolves sees no roles and allows nothing. */
  start(): Promise<void>;
  stop(): void;
  /** The rules a role reference grants in a namespace, or why there are none (it does not exist). */
  roleRefRules(roleRef: RoleRef, namespace: string): { rules: PolicyRule[] } | { error: string };
  /** Every rule `user` holds in `namespace` ('' = only cluster-wide ones), with resolution errors. */
  rulesHeld(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] };
}

function notFound(kind: string, name: string): string {
  return `${kind.toLowerCase()}.rbac.authorization.k8s.io ${JSON.stringify(name)} not found`;
}

/** Go's utilerrors.NewAggregate text: one error as itself, several as [a, b]. */
function aggregate(errors: string[]): string {
  return errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`;
}

export function createRbacAuthorizer(store: Store): RbacAuthorizer {
  const cache = new RbacCache(store);
  const decisions = new DecisionCache();

  function roleRefRules(roleRef: RoleRef, namespace: string): { rules: PolicyRule[] } | { error: string } {
    if (roleRef.kind === 'ClusterRole') {
      const rules = cache.clusterRoleRules(roleRef.name);
      return rules ? { rules } : { error: notFound('ClusterRole', roleRef.name) };
    }
    if (roleRef.kind === 'Role') {
      const rules = cache.roleRules(namespace, roleRef.name);
      return rules ? { rules } : { error: notFound('Role', roleRef.name) };
    }
    return { error: `unsupported role reference kind: ${JSON.stringify(roleRef.kind)}` };
  }

  /** Kubernetes' VisitRulesFor: cluster-wide bindings first, then those of the namespace. */
  function visitRules(user: UserInfo, namespace: string, visit: RuleVisitor, errors: string[]): void {
    const visitBinding = (binding: Binding): boolean => {
      const subject = binding.subjects.find((s) => appliesTo(user, s, binding.namespace));
      if (!subject) return true;
      const found = roleRefRules(binding.roleRef, binding.namespace);
      if ('error' in found) {
        errors.push(found.error);
        return true;
      }
      const source = describeBinding(binding, subject);
      for (const rule of found.rules) if (!visit(source, rule)) return false;
      return true;
    };
    for (const binding of cache.clusterRoleBindingsFor(user)) if (!visitBinding(binding)) return;
    if (namespace === '') return;
    for (const binding of cache.roleBindingsFor(user, namespace)) if (!visitBinding(binding)) return;
  }

  function rulesHeld(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    visitRules(
      user,
      namespace,
      (_source, rule) => {
        rules.push(rule);
        return true;
      },
      errors,
    );
    return { rules, errors };
  }

  /** RBAC's answer from the rules themselves (authorize() remembers it until RBAC changes). */
  function evaluate(attributes: RequestAttributes): Decision {
    const errors: string[] = [];
    let reason = '';
    visitRules(
      attributes.user,
      attributes.namespace,
      (source, rule) => {
        if (!ruleAllows(attributes, rule)) return true;
        reason = `RBAC: allowed by ${source}`;
        return false;
      },
      errors,
    );
    if (reason) return { allowed: true, reason };
    // As Kubernetes: no reason unless a binding could not be resolved (its role is missing),
    // which the 403 message then carries after "User ... cannot ...".
    return { allowed: false, reason: errors.length > 0 ? `RBAC: ${aggregate(errors)}` : '' };
  }

  return {
    start: () => cache.start(),
    stop: () => cache.stop(),
    roleRefRules,
    rulesHeld,

    authorize(attributes: RequestAttributes): Decision {
      return decisions.decide(attributes, cache.version, () => evaluate(attributes));
    },

    /** What SelfSubjectRulesReview reports: resource and non-resource rules, split as Kubernetes does. */
    rulesFor(user: UserInfo, namespace: string) {
      const { rules, errors } = rulesHeld(user, namespace);
      const resourceRules: ResourceRule[] = [];
      const nonResourceRules: NonResourceRule[] = [];
      for (const rule of rules) {
        if (rule.resources.length > 0) {
          const out: ResourceRule = { verbs: rule.verbs, apiGroups: rule.apiGroups, resources: rule.resources };
          if (rule.resourceNames.length > 0) out.resourceNames = rule.resourceNames;
          resourceRules.push(out);
        }
        if (rule.nonResourceURLs.length > 0) nonResourceRules.push({ verbs: rule.verbs, nonResourceURLs: rule.nonResourceURLs });
      }
      const result: ReturnType<RuleLister['rulesFor']> = { resourceRules, nonResourceRules, incomplete: false };
      if (errors.length > 0) result.evaluationError = aggregate(errors);
      return result;
    },
  };
}
