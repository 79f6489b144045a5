// Impersonation (`kubectl --as USER --as-group GROUP`): the Impersonate-User, Impersonate-Group
// and Impersonate-Uid headers make the request act as someone else, when the requester may
// `impersonate` that user, each of those groups and that uid (Kubernetes' impersonation filter).
// A service account is impersonated by its user name and needs `impersonate serviceaccounts`.
import type { IncomingMessage } from 'node:http';
import { AUTHENTICATED_GROUP } from './authn/authenticator.js';
import type { Authorizer, RequestAttributes, UserInfo } from './types.js';

const SERVICE_ACCOUNT = /^system:serviceaccount:([^:]+):([^:]+)$/;

export class ImpersonationRefused extends Error {
  override name = 'ImpersonationRefused';
}

/** The user the request acts as: `user` itself without impersonation headers. Throws ImpersonationRefused. */
export function impersonated(req: IncomingMessage, user: UserInfo, authorizer: Authorizer): UserInfo {
  const target = header(req, 'impersonate-user');
  const groups = headers(req, 'impersonate-group');
  const uid = header(req, 'impersonate-uid');
  if (target === undefined) {
    if (groups.length > 0 || uid !== undefined) throw new ImpersonationRefused('impersonating groups or a uid needs Impersonate-User too');
    return user;
  }
  const ask = (resource: string, name: string, namespace = '', apiGroup = '') => {
    const attributes: RequestAttributes = {
      user,
      verb: 'impersonate',
      resourceRequest: true,
      apiGroup,
      apiVersion: '',
      resource,
      subresource: '',
      namespace,
      name,
      path: '',
    };
    if (!authorizer.authorize(attributes).allowed)
      throw new ImpersonationRefused(
        `User "${user.username}" cannot impersonate resource "${resource}" in API group "${apiGroup}"${namespace ? ` in the namespace "${namespace}"` : ''}`,
      );
  };
  const account = SERVICE_ACCOUNT.exec(target);
  if (account) ask('serviceaccounts', account[2]!, account[1]!);
  else ask('users', target);
  for (const group of groups) ask('groups', group);
  if (uid !== undefined) ask('uids', uid, '', 'authentication.k8s.io');
  const impersonatedGroups = account ? ['system:serviceaccounts', `system:serviceaccounts:${account[1]}`, ...groups] : groups;
  const result: UserInfo = { username: target, groups: [...new Set([...impersonatedGroups, AUTHENTICATED_GROUP])] };
  if (uid !== undefined) result.uid = uid;
  return result;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const NONE: readonly string[] = Object.freeze([]);

/** Node joins repeated headers with ', ' except a few; groups may be sent as several headers. */
function headers(req: IncomingMessage, name: string): readonly string[] {
  // Nearly every request has none: the parsed headers say so without a scan of the raw ones.
  if (req.headers[name] === undefined) return NONE;
  const values: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() === name) values.push(req.rawHeaders[i + 1]!);
  }
  return values;
}
