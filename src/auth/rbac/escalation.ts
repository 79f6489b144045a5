// Escalation prevention, as Kubernetes' RBAC storage does it (pkg/registry/rbac/*/policybased):
// RBAC is only safe if nobody can grant more than they hold. So a Role or ClusterRole may be
// written only by someone who holds every rule in it (or may `escalate` on roles/clusterroles),
// and a binding only by someone who holds every rule of the role it references (or may `bind`
// that role). Members of system:masters may always, as the API server's own loopback user is one.
//
// Call it in the write path after defaulting (so a binding's roleRef.apiGroup is filled) and
// before the store, for create and update (and patch, with the patched object): it ignores
// other kinds, so it can be called for every write. The hook for that is WriteOptions.admit
// (src/apiserver/registry/object-registry.ts), which the registry calls with exactly that
// object; handlers/write.ts's writeOptions(ctx) can set it from ctx.user:
//   options.admit = (object, old) => checkRbacEscalation(rbac, ctx.user, object, ctx.def, old);
import type { ValidatingAdmission } from '../../apiserver/admission/validating-admission.js';
import { MASTERS_GROUP } from '../components.js';
import type { KubeObject } from '../../api/meta.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { semanticEqual } from '../../util/json-equal.js';
import { forbidden } from '../../apiserver/errors.js';
import type { UserInfo } from '../types.js';
import type { RbacAuthorizer } from './authorizer.js';
import { compactRules, compactString, goQuoted, uncoveredRules } from './covers.js';
import { normalizeRules, type PolicyRule } from './rules.js';

const RBAC = 'rbac.authorization.k8s.io';

/** What an aggregationRule needs: it can gather any rule, so only who holds all may set one. */
const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [], nonResourceURLs: [] },
  { verbs: ['*'], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: ['*'] },
];

export type EscalationChecker = Pick<RbacAuthorizer, 'authorize' | 'rulesHeld' | 'roleRefRules'>;

function refuse(def: ResourceDefinition, name: string, message: string): never {
  throw forbidden(`${def.plural}.${def.group} ${JSON.stringify(name)} is forbidden: ${message}`, { group: def.group, plural: def.plural, name });
}

/** Kubernetes' ConfirmNoEscalation: undefined when `user` holds `rules` in `namespace`, else why not. */
function missingRights(rbac: EscalationChecker, user: UserInfo, namespace: string, rules: PolicyRule[]): string | undefined {
  const held = rbac.rulesHeld(user, namespace);
  const missing = uncoveredRules(held.rules, rules);
  if (missing.length === 0) return undefined;
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  let message = `user ${JSON.stringify(user.username)} (groups=${goQuoted(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  if (held.errors.length > 0) message += `; resolution errors: [${held.errors.join(' ')}]`;
  return message;
}

/**
 * True when an update changes nothing that grants access: only what the garbage collector and
 * the server keep (owners, finalizers, versions, managed fields). Labels do count: a label can
 * pull a ClusterRole into an aggregate.
 */
function onlyBookkeeping(object: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject) => {
    const { ownerReferences: _o, finalizers: _f, managedFields: _m, resourceVersion: _r, generation: _g, ...meta } = o.metadata;
    return { ...o, metadata: meta };
  };
  return semanticEqual(strip(object), strip(old));
}

function allowedTo(rbac: EscalationChecker, user: UserInfo, verb: string, resource: string, namespace: string, name: string): boolean {
  return rbac.authorize({
    user,
    verb,
    resourceRequest: true,
    apiGroup: RBAC,
    apiVersion: '*',
    resource,
    subresource: '',
    namespace,
    name,
    path: '',
  }).allowed;
}

/**
 * Throws a 403 ApiError when `user` may not write `object` (a create when `old` is undefined)
 * because it would grant permissions the user does not hold.
 */
export function checkRbacEscalation(rbac: EscalationChecker, user: UserInfo, object: KubeObject, def: ResourceDefinition, old?: KubeObject): void {
  if (def.group !== RBAC) return;
  if (user.groups.includes(MASTERS_GROUP)) return;
  if (old && onlyBookkeeping(object, old)) return;
  const name = object.metadata.name ?? '';
  const namespace = def.namespaced ? (object.metadata.namespace ?? '') : '';
  if (def.kind === 'Role' || def.kind === 'ClusterRole') {
    // Kubernetes asks with the request's name: none on a create.
    if (allowedTo(rbac, user, 'escalate', def.plural, namespace, old ? name : '')) return;
    const missing = missingRights(rbac, user, namespace, normalizeRules(object['rules']));
    if (missing) refuse(def, name, missing);
    const aggregation = object['aggregationRule'] ?? old?.['aggregationRule'];
    if (def.kind === 'ClusterRole' && aggregation !== undefined && aggregation !== null && missingRights(rbac, user, namespace, FULL_AUTHORITY)) {
      refuse(def, name, 'must have cluster-admin privileges to use the aggregationRule');
    }
    return;
  }
  if (def.kind === 'RoleBinding' || def.kind === 'ClusterRoleBinding') {
    const roleRef = (object['roleRef'] ?? {}) as { kind?: string; name?: string };
    const kind = roleRef.kind ?? '';
    const roleName = roleRef.name ?? '';
    const resource = kind === 'Role' ? 'roles' : kind === 'ClusterRole' ? 'clusterroles' : '';
    // `bind` is asked in the binding's namespace, so it can be delegated per namespace.
    if (resource && allowedTo(rbac, user, 'bind', resource, namespace, roleName)) return;
    const found = rbac.roleRefRules({ kind, name: roleName }, namespace);
    if ('error' in found) refuse(def, name, found.error);
    const missing = missingRights(rbac, user, namespace, found.rules);
    if (missing) refuse(def, name, missing);
  }
}

/** The escalation check as a step of the registry's validating admission (src/apiserver/admission). */
export function escalationAdmission(rbac: EscalationChecker): ValidatingAdmission {
  return {
    // Only RBAC's own kinds can grant anything.
    validates: (request) => request.user !== undefined && request.def.group === RBAC,
    async validate(request) {
      if (request.user) checkRbacEscalation(rbac, request.user, request.object, request.def, request.old);
      return [];
    },
  };
}
