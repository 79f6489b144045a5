// Tokens for pods' projected serviceAccountToken sources, as the kubelet's token manager gets
// them: a TokenRequest bound to the pod (so the token dies with it), kept and handed out again
// until it is older than 80 % of its life or than 24 hours, then requested anew. A request that
// fails while the old token is still good keeps the old one (the API may be briefly away); the
// next volume refresh tries again.
import { resources, type ApiClient } from '../../../client/index.js';
import type { Pod, ServiceAccountTokenProjection } from '../../../api/core/index.js';

const MAX_AGE_MS = 24 * 60 * 60 * 1000;
const REFRESH_AT = 0.8;

/** The parts of a serviceAccountToken projection that shape the token (not where it is written). */
export type TokenProjection = Pick<ServiceAccountTokenProjection, 'audience' | 'expirationSeconds'>;

interface Held {
  token: string;
  issuedAt: number;
  expiresAt: number;
}

interface TokenRequestAnswer {
  status?: { token?: string; expirationTimestamp?: string };
}

export class ServiceAccountTokenSource {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly api: ApiClient,
    private readonly now: () => number = Date.now,
  ) {}

  async token(pod: Pod, projection: TokenProjection): Promise<string> {
    const { namespace = 'default', name = '', uid = '' } = pod.metadata;
    const account = pod.spec.serviceAccountName || 'default';
    const expirationSeconds = projection.expirationSeconds ?? 3600;
    const key = `${uid}/${account}/${projection.audience ?? ''}/${expirationSeconds}`;
    const now = this.now();
    this.prune(now);
    const held = this.held.get(key);
    if (held && !needsRefresh(held, now)) return held.token;
    try {
      const answer = await this.api.resource(resources.serviceaccounts, namespace).createSubresource<TokenRequestAnswer>(account, 'token', {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: {
          ...(projection.audience ? { audiences: [projection.audience] } : {}),
          expirationSeconds,
          boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name, uid },
        },
      });
      const token = answer.status?.token;
      if (!token) throw new Error(`the token request for service account ${namespace}/${account} was answered without a token`);
      const expiresAt = Date.parse(answer.status?.expirationTimestamp ?? '') || now + expirationSeconds * 1000;
      this.held.set(key, { token, issuedAt: now, expiresAt });
      return token;
    } catch (error) {
      if (held && held.expiresAt > now) return held.token;
      throw new Error(`failed to fetch token: ${(error as Error).message}`);
    }
  }

  /** Tokens whose life is over are of no use to anyone: forgotten (deleted pods' tokens go this way). */
  private prune(now: number): void {
    for (const [key, held] of this.held) if (held.expiresAt <= now) this.held.delete(key);
  }
}

export function needsRefresh(held: { issuedAt: number; expiresAt: number }, now: number): boolean {
  const age = now - held.issuedAt;
  return age > REFRESH_AT * (held.expiresAt - held.issuedAt) || age > MAX_AGE_MS;
}
