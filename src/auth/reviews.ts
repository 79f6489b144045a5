// The answers to the review kinds: who am I (SelfSubjectReview), may I / may they
// (Self/Local/SubjectAccessReview, `kubectl auth can-i`), and what may I do here
// (SelfSubjectRulesReview, `kubectl auth can-i --list`), each from the server's own authorizer.
import type { KubeObject } from '../api/meta.js';
import type { Requester } from '../api/resource.js';
import type { RequestAttributes, UserInfo } from './types.js';
import { nonResourceRequest } from './request-attributes.js';

type Spec = Record<string, unknown>;

export function whoAmI(requester: Requester): Record<string, unknown> {
  return { userInfo: requester.user };
}

/** `spec.user/groups/uid/extra` name the subject of a SubjectAccessReview; a self review is the requester. */
export function accessReview(review: KubeObject, requester: Requester, subject?: UserInfo): Record<string, unknown> {
  const spec = (review['spec'] ?? {}) as Spec;
  const attributes = attributesOf(spec, subject ?? requester.user, review.metadata.namespace);
  if (!requester.authorizer) return { allowed: true, reason: 'this server does not authorize requests' };
  const decision = requester.authorizer.authorize(attributes);
  return decision.allowed ? { allowed: true, reason: decision.reason } : { allowed: false, ...(decision.reason ? { reason: decision.reason } : {}) };
}

export function subjectOf(review: KubeObject): UserInfo {
  const spec = (review['spec'] ?? {}) as Spec;
  const user: UserInfo = {
    username: typeof spec['user'] === 'string' ? spec['user'] : '',
    groups: Array.isArray(spec['groups']) ? (spec['groups'] as string[]) : [],
  };
  if (typeof spec['uid'] === 'string') user.uid = spec['uid'];
  if (spec['extra'] && typeof spec['extra'] === 'object') user.extra = spec['extra'] as Record<string, string[]>;
  return user;
}

export function rulesReview(review: KubeObject, requester: Requester): Record<string, unknown> {
  const namespace = String(((review['spec'] ?? {}) as Spec)['namespace'] ?? '');
  if (!requester.rules) {
    return {
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    };
  }
  const { resourceRules, nonResourceRules, incomplete, evaluationError } = requester.rules.rulesFor(requester.user, namespace);
  return { resourceRules, nonResourceRules, incomplete, ...(evaluationError ? { evaluationError } : {}) };
}

function attributesOf(spec: Spec, user: UserInfo, reviewNamespace: string | undefined): RequestAttributes {
  const resource = spec['resourceAttributes'] as Spec | undefined;
  const nonResource = spec['nonResourceAttributes'] as Spec | undefined;
  const text = (section: Spec | undefined, field: string) => (typeof section?.[field] === 'string' ? (section[field] as string) : '');
  if (resource || !nonResource) {
    return {
      user,
      verb: text(resource, 'verb'),
      resourceRequest: true,
      apiGroup: text(resource, 'group'),
      apiVersion: text(resource, 'version'),
      resource: text(resource, 'resource'),
      subresource: text(resource, 'subresource'),
      // A LocalSubjectAccessReview asks about its own namespace only.
      namespace: reviewNamespace ?? text(resource, 'namespace'),
      name: text(resource, 'name'),
      path: '',
    };
  }
  return nonResourceRequest(user, text(nonResource, 'verb'), text(nonResource, 'path'));
}

/** TokenReview: the token through the server's token authenticators, for the audiences asked (default the API's). */
export async function tokenReview(review: KubeObject, requester: Requester): Promise<Record<string, unknown>> {
  const spec = (review['spec'] ?? {}) as Spec;
  const token = typeof spec['token'] === 'string' ? spec['token'] : '';
  const asked = Array.isArray(spec['audiences']) ? (spec['audiences'] as unknown[]).filter((a): a is string => typeof a === 'string') : [];
  if (!requester.tokens) return { authenticated: false, error: 'this server does not review tokens' };
  const audiences = asked.length > 0 ? asked : [...requester.tokens.apiAudiences];
  const user = token === '' ? undefined : await requester.tokens.authenticateToken(token, audiences);
  if (!user) return { authenticated: false, user: {}, ...(token === '' ? { error: 'the token is empty' } : {}) };
  return { authenticated: true, user, audiences };
}
