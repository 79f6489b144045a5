// The one place every request is authenticated and authorized, before any handler runs: plain
// requests, watches, subresources and upgraded streams (exec, attach, port-forward) alike.
import type { IncomingMessage } from 'node:http';
import { RequestAuthenticator, Unauthenticated } from '../auth/authn/authenticator.js';
import { impersonated, ImpersonationRefused } from '../auth/impersonation.js';
import { forbiddenMessage, nonResourceAttributes, resourceAttributes } from '../auth/request-attributes.js';
import { ANONYMOUS_USER, type Authorizer, type RequestAttributes, type RuleLister, type UserInfo } from '../auth/types.js';
import { forbidden, unauthorized } from './errors.js';
import type { ResourcePath } from './routes.js';
import type { ReviewTokenAuthenticator } from '../api/resource.js';
import type { MaybePromise } from '../util/maybe-promise.js';

/**
 * What Kubernetes serves to anyone (system:public-info-viewer): health, the version, and the
 * cluster CA that a joining agent checks against the hash in its token (k3s' /cacerts).
 */
const PUBLIC_PATHS = new Set(['/healthz', '/livez', '/readyz', '/version', '/cacerts']);

export interface AccessControl {
  authenticator: RequestAuthenticator;
  authorizer: Authorizer;
  /** What a user may do in a namespace (SelfSubjectRulesReview); RBAC's rules. */
  rules?: RuleLister;
  /** TokenReview's view of authentication: the token chain and the API's audiences. */
  tokens?: ReviewTokenAuthenticator;
}

/**
 * Who sent the request; anonymous where the path is public. Throws (or rejects with) 401 for no
 * or bad credentials. At once for a client certificate: see RequestAuthenticator.authenticate.
 */
export function authenticate(access: AccessControl, req: IncomingMessage, pathname: string, path: ResourcePath | undefined): MaybePromise<UserInfo> {
  let found: MaybePromise<UserInfo | undefined>;
  try {
    found = access.authenticator.authenticate(req);
  } catch (error) {
    throw as401(error);
  }
  if (!(found instanceof Promise)) return senderOrPublic(found, pathname, path);
  return found.then(
    (user) => senderOrPublic(user, pathname, path),
    (error: unknown) => {
      throw as401(error);
    },
  );
}

function senderOrPublic(user: UserInfo | undefined, pathname: string, path: ResourcePath | undefined): UserInfo {
  if (user) return user;
  if (!path && isPublic(pathname)) return ANONYMOUS_USER;
  throw unauthorized();
}

function as401(error: unknown): unknown {
  return error instanceof Unauthenticated ? unauthorized() : error;
}

/**
 * Who the request acts as: the one it impersonates (Impersonate-User headers, when the sender
 * may), else its sender. Throws 403 when impersonation is refused.
 */
export function actingUser(access: AccessControl, req: IncomingMessage, sender: UserInfo): UserInfo {
  if (sender === ANONYMOUS_USER) return sender;
  try {
    return impersonated(req, sender, access.authorizer);
  } catch (error) {
    if (error instanceof ImpersonationRefused) throw forbidden(error.message);
    throw error;
  }
}

/** What the request asks, for `user`: the attributes authorization and the audit policy both read. */
export function requestAttributes(user: UserInfo, method: string, pathname: string, path: ResourcePath | undefined, query: URLSearchParams): RequestAttributes {
  return path ? resourceAttributes(user, method, path, query) : nonResourceAttributes(user, method, pathname);
}

/** Throws 403 (as ApiError) unless `attributes.user` may do what the request asks. */
export function authorize(access: AccessControl, attributes: RequestAttributes): void {
  if (!attributes.resourceRequest && isPublic(attributes.path)) return;
  const decision = access.authorizer.authorize(attributes);
  if (!decision.allowed) throw forbidden(forbiddenMessage(attributes, decision.reason), attributes.resourceRequest ? refOf(attributes) : undefined);
}

function isPublic(pathname: string): boolean {
  return PUBLIC_PATHS.has(pathname.replace(/\/+$/, '') || '/');
}

function refOf(attributes: RequestAttributes): { group: string; plural: string; name?: string } {
  const ref = { group: attributes.apiGroup, plural: attributes.resource };
  return attributes.name ? { ...ref, name: attributes.name } : ref;
}
