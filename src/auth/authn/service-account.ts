// Service-account JWTs as bearer tokens (Kubernetes' serviceaccount token authenticator): the
// signature, issuer, time and audience are checked by the token module; then, as for Kubernetes'
// bound tokens, the account must still exist with the uid the token names, and so must the pod
// or Secret the token is bound to (a pod's token dies with its pod). Those reads go to the store
// by key; a verified token is remembered for a few seconds (Kubernetes caches token answers for
// 10 s), so a client that sends the same token on every request costs one signature check and
// two reads per window, not per request.
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import { keyFor } from '../../apiserver/registry/keys.js';
import type { Store } from '../../storage/store.js';
import { JwtError } from '../serviceaccount/jwt.js';
import { SERVICE_ACCOUNT_PREFIX, type ObjectRef, type ServiceAccountTokens, type VerifiedToken } from '../serviceaccount/tokens.js';
import type { UserInfo } from '../types.js';
import { AUTHENTICATED_GROUP, type TokenAuthenticator } from './authenticator.js';

export const SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';
export const POD_NAME_EXTRA = 'authentication.kubernetes.io/pod-name';
export const POD_UID_EXTRA = 'authentication.kubernetes.io/pod-uid';
/** A bound pod being deleted keeps its token this long past its deletionTimestamp, as Kubernetes allows. */
const DELETION_GRACE_MS = 60_000;
const DEFAULT_CACHE_MS = 5000;
const MAX_CACHED = 4096;

export interface ServiceAccountAuthenticatorOptions {
  /** How long a verified token is trusted without reading the store again; 0: never cached. */
  cacheMs?: number;
}

export class ServiceAccountAuthenticator implements TokenAuthenticator {
  private readonly cache = new Map<string, { user: UserInfo; until: number }>();
  private readonly cacheMs: number;

  constructor(
    private readonly tokens: ServiceAccountTokens,
    private readonly store: Store,
    options: ServiceAccountAuthenticatorOptions = {},
  ) {
    this.cacheMs = options.cacheMs ?? DEFAULT_CACHE_MS;
  }

  async authenticateToken(token: string, audiences?: readonly string[]): Promise<UserInfo | undefined> {
    // Another issuer's JWT, or no JWT at all: not ours to judge.
    if (!this.tokens.claims(token)) return undefined;
    const cacheable = audiences === undefined && this.cacheMs > 0;
    const now = Date.now();
    const hit = cacheable ? this.cache.get(token) : undefined;
    if (hit && hit.until > now) return hit.user;
    let verified: VerifiedToken;
    try {
      verified = this.tokens.verify(token, audiences);
    } catch (error) {
      if (error instanceof JwtError) return undefined;
      throw error;
    }
    if (!(await this.stillBound(verified, now))) return undefined;
    const user = userOf(verified);
    if (cacheable) this.remember(token, user, now, verified.expiresAt * 1000);
    return user;
  }

  private async stillBound(token: VerifiedToken, now: number): Promise<boolean> {
    const account = await this.read('serviceaccounts', token.namespace, token.serviceAccount);
    if (!account) return false;
    if (token.pod) {
      const pod = await this.read('pods', token.namespace, token.pod);
      const deleted = pod?.metadata.deletionTimestamp;
      if (!pod || (deleted && Date.parse(deleted) + DELETION_GRACE_MS < now)) return false;
    }
    if (token.secret && !(await this.read('secrets', token.namespace, token.secret))) return false;
    return true;
  }

  /** The object, when it exists with this uid (a recreated one of the same name is another object). */
  private async read(plural: string, namespace: string, ref: ObjectRef): Promise<KubeObject | undefined> {
    const object = await this.store.get(keyFor(findResource('', 'v1', plural)!, namespace, ref.name));
    return object && object.metadata.uid === ref.uid ? object : undefined;
  }

  private remember(token: string, user: UserInfo, now: number, expiresAtMs: number): void {
    if (this.cache.size >= MAX_CACHED) {
      for (const [key, entry] of this.cache) if (entry.until <= now) this.cache.delete(key);
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
    }
    this.cache.set(token, { user, until: Math.min(now + this.cacheMs, expiresAtMs) });
  }
}

export function serviceAccountUser(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_PREFIX}${namespace}:${name}`;
}

function userOf(token: VerifiedToken): UserInfo {
  const user: UserInfo = {
    username: serviceAccountUser(token.namespace, token.serviceAccount.name),
    uid: token.serviceAccount.uid,
    groups: [SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNTS_GROUP}:${token.namespace}`, AUTHENTICATED_GROUP],
  };
  if (token.pod) user.extra = { [POD_NAME_EXTRA]: [token.pod.name], [POD_UID_EXTRA]: [token.pod.uid] };
  return user;
}
