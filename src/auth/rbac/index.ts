// RBAC for Drover, as Kubernetes has it. What the API server uses:
// - ensureDefaultRbac(registry) at start, then a ClusterRoleAggregator (start/stop), both in
//   startApiServer (src/apiserver/server.ts);
// - createRbacAuthorizer(store): authorize() on every request, rulesFor() for
//   SelfSubjectRulesReview, after `await start()`;
// - escalationAdmission(rbac): checkRbacEscalation as a validating admission step of the registry.
export { createRbacAuthorizer, type RbacAuthorizer, type RuleVisitor } from './authorizer.js';
export { ClusterRoleAggregator, aggregatedRules } from './aggregation.js';
export { ensureDefaultRbac } from './defaults.js';
export { checkRbacEscalation, escalationAdmission, type EscalationChecker } from './escalation.js';
export { AUTOUPDATE_ANNOTATION, defaultClusterRoleBindings, defaultClusterRoles } from './bootstrap-policy.js';
export { ruleAllows, type PolicyRule } from './rules.js';
