// The one place every request is authenticated and authorized, before any handler runs: plain
// requests, watches, subresources and upgraded streams (exec, attach, port-forward) alike.
import type { IncomingMessage } from 'node:http';
import { RequestAuthenticator, Unauthenticated } from '../auth/authn/authenticator.js';
import { forbiddenMessage, nonResourceAttributes, resourceAttributes } from '../auth/request-attributes.js';
import { ANONYMOUS_USER, type Authorizer, type RequestAttributes, type RuleLister, type UserInfo } from '../auth/types.js';
import { forbidden, unauthorized } from './errors.js';
import type { ResourcePath } from './routes.js';

/**
 * What Kubernetes serves to anyone (system:public-info-viewer): health, the version, and the
 * cluster CA that a joining agent checks against the hash in its token (k3s' /cacerts).
 */
const PUBLIC_PATHS = new Set(['/healthz', '/livez', '/readyz', '/version', '/cacerts']);

export interface AccessControl {
  authenticator: RequestAuthenticator;
  /** Without one, every authenticated user may do everything. */
  authorizer?: Authorizer;
  /** What a user may do in a namespace (SelfSubjectRulesReview); RBAC's rules. */
  rules?: RuleLister;
}

export interface Admitted {
  user: UserInfo;
  attributes: RequestAttributes;
}

/** The user and what they ask; throws 401 or 403 (as ApiError). */
export async function admit(access: AccessControl, req: IncomingMessage, pathname: string, path: ResourcePath | undefined, query: URLSearchParams): Promise<Admitted> {
  const method = req.method ?? 'GET';
  let user: UserInfo | undefined;
  try {
    user = await access.authenticator.authenticate(req);
  } catch (error) {
    if (error instanceof Unauthenticated) throw unauthorized();
    throw error;
  }
  const publicPath = !path && PUBLIC_PATHS.has(pathname.replace(/\/+$/, '') || '/');
  if (!user && !publicPath) throw unauthorized();
  const attributes = path ? resourceAttributes(user ?? ANONYMOUS_USER, method, path, query) : nonResourceAttributes(user ?? ANONYMOUS_USER, method, pathname);
  if (user && access.authorizer && !publicPath) {
    const decision = access.authorizer.authorize(attributes);
    if (!decision.allowed) throw forbidden(forbiddenMessage(attributes, decision.reason), path ? refOf(path) : undefined);
  }
  return { user: user ?? ANONYMOUS_USER, attributes };
}

function refOf(path: ResourcePath): { group: string; plural: string; name?: string } {
  return path.name === undefined ? { group: path.group, plural: path.plural } : { group: path.group, plural: path.plural, name: path.name };
}
