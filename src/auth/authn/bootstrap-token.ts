// The join token's secret as a bearer token: whoever holds it is a node that has not joined yet
// (Kubernetes' bootstrap tokens: group system:bootstrappers), allowed by RBAC to ask for a client
// certificate and nothing else.
import { timingSafeEqual } from 'node:crypto';
import type { UserInfo } from '../types.js';
import type { TokenAuthenticator } from './authenticator.js';

export const BOOTSTRAPPERS_GROUP = 'system:bootstrappers';
export const BOOTSTRAP_USER = 'system:bootstrap:drover';

export function bootstrapTokenAuthenticator(secret: string): TokenAuthenticator {
  const expected = Buffer.from(secret);
  const user: UserInfo = { username: BOOTSTRAP_USER, groups: [BOOTSTRAPPERS_GROUP] };
  return {
    authenticateToken(token) {
      const given = Buffer.from(token);
      return given.length === expected.length && timingSafeEqual(given, expected) ? user : undefined;
    },
  };
}
