// Bindings and their subjects: who a binding applies to, the keys the authorizer indexes
// bindings by, and the texts Kubernetes' RBAC uses to describe them in reasons.
import type { UserInfo } from '../types.js';

export interface Subject {
  kind: string;
  name: string;
  namespace: string;
}

export interface RoleRef {
  kind: string;
  name: string;
}

/** A RoleBinding (namespace set) or ClusterRoleBinding (namespace ''), as the cache keeps it. */
export interface Binding {
  name: string;
  namespace: string;
  roleRef: RoleRef;
  subjects: Subject[];
}

const SA_PREFIX = 'system:serviceaccount:';

export function serviceAccountUsername(namespace: string, name: string): string {
  return `${SA_PREFIX}${namespace}:${name}`;
}

/**
 * The index key a subject is found under: a user name (service accounts are users named
 * system:serviceaccount:<ns>:<name>) or a group. A RoleBinding's service account without a
 * namespace is in the binding's; a ClusterRoleBinding's then matches no one.
 */
export function subjectKey(subject: Subject, bindingNamespace: string): string | undefined {
  switch (subject.kind) {
    case 'User':
      return `u:${subject.name}`;
    case 'Group':
      return `g:${subject.name}`;
    case 'ServiceAccount': {
      const namespace = subject.namespace || bindingNamespace;
      return namespace ? `u:${serviceAccountUsername(namespace, subject.name)}` : undefined;
    }
    default:
      return undefined;
  }
}

/** The keys a user's bindings are indexed under: the user name, then every group. */
export function userKeys(user: UserInfo): string[] {
  return [`u:${user.username}`, ...user.groups.map((group) => `g:${group}`)];
}

export function appliesTo(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  const key = subjectKey(subject, bindingNamespace);
  if (key === undefined) return false;
  return key.startsWith('u:') ? key.slice(2) === user.username : user.groups.includes(key.slice(2));
}

function quote(text: string): string {
  return JSON.stringify(text);
}

/** As Kubernetes' describeSubject: `User "alice"`, `ServiceAccount "ci/dev"` (name/namespace). */
export function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount') return `${subject.kind} ${quote(`${subject.name}/${subject.namespace || bindingNamespace}`)}`;
  return `${subject.kind} ${quote(subject.name)}`;
}

/** `ClusterRoleBinding "x" of ClusterRole "y" to User "z"`; RoleBindings are named name/namespace. */
export function describeBinding(binding: Binding, subject: Subject): string {
  const kind = binding.namespace ? 'RoleBinding' : 'ClusterRoleBinding';
  const name = binding.namespace ? `${binding.name}/${binding.namespace}` : binding.name;
  return `${kind} ${quote(name)} of ${binding.roleRef.kind} ${quote(binding.roleRef.name)} to ${describeSubject(subject, binding.namespace)}`;
}
