// Service-account tokens as Kubernetes makes them (pkg/serviceaccount/claims.go): a JWT whose
// `sub` is system:serviceaccount:<ns>:<name>, with the account (and the pod or secret the token
// is bound to) under the private `kubernetes.io` claim. Signed here; checked here for signature,
// issuer, audience and time; whether the account and pod still exist is the authenticator's part.
import { randomUUID } from 'node:crypto';
import { JwtError, peekClaims, signJwt, verifyJwt, type JwtClaims } from './jwt.js';
import type { SigningKey } from './signing-key.js';

/** kube-apiserver's default --service-account-issuer and API audience (k3s uses it too). */
export const DEFAULT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
export const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';
/** Clocks of two machines differ: nbf and exp are checked with this much leeway, as Kubernetes does. */
const LEEWAY_SECONDS = 60;

export interface ObjectRef {
  name: string;
  uid: string;
}

export interface TokenSubject {
  namespace: string;
  serviceAccount: ObjectRef;
  pod?: ObjectRef;
  secret?: ObjectRef;
}

export interface IssueRequest extends TokenSubject {
  audiences: string[];
  expirationSeconds: number;
}

export interface IssuedToken {
  token: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

export interface VerifiedToken extends TokenSubject {
  audiences: string[];
  expiresAt: number;
}

interface KubernetesClaim {
  namespace?: string;
  serviceaccount?: Partial<ObjectRef>;
  pod?: Partial<ObjectRef>;
  secret?: Partial<ObjectRef>;
}

export class ServiceAccountTokens {
  readonly issuer: string;
  /** The audiences the API server accepts tokens for (and gives tokens that name none). */
  readonly apiAudiences: string[];

  constructor(
    private readonly key: SigningKey,
    options: { issuer?: string; apiAudiences?: string[]; now?: () => number } = {},
  ) {
    this.issuer = options.issuer ?? DEFAULT_ISSUER;
    this.apiAudiences = options.apiAudiences ?? [this.issuer];
    if (options.now) this.now = options.now;
  }

  /** Seconds since the epoch. */
  now = (): number => Math.floor(Date.now() / 1000);

  issue(request: IssueRequest): IssuedToken {
    const iat = this.now();
    const exp = iat + request.expirationSeconds;
    const kubernetes: KubernetesClaim = { namespace: request.namespace, serviceaccount: { ...request.serviceAccount } };
    if (request.pod) kubernetes.pod = { ...request.pod };
    if (request.secret) kubernetes.secret = { ...request.secret };
    const claims: JwtClaims = {
      aud: request.audiences,
      exp,
      iat,
      iss: this.issuer,
      jti: randomUUID(),
      'kubernetes.io': kubernetes,
      nbf: iat,
      sub: `${SERVICE_ACCOUNT_PREFIX}${request.namespace}:${request.serviceAccount.name}`,
    };
    return { token: signJwt(claims, this.key.privateKey), expiresAt: exp };
  }

  /** Whether the token claims to be ours: cheap, so other issuers' JWTs pass on to other authenticators. */
  claims(token: string): boolean {
    return peekClaims(token)?.iss === this.issuer;
  }

  /**
   * The token's subject, when it is ours, in its time, and meant for one of `audiences` (default:
   * the API's); throws JwtError saying why not.
   */
  verify(token: string, audiences: readonly string[] = this.apiAudiences): VerifiedToken {
    const claims = verifyJwt(token, this.key.publicKey);
    if (claims.iss !== this.issuer) throw new JwtError('issuer does not match');
    const now = this.now();
    if (typeof claims.exp !== 'number' || now > claims.exp + LEEWAY_SECONDS) throw new JwtError('token has expired');
    if (typeof claims.nbf === 'number' && now < claims.nbf - LEEWAY_SECONDS) throw new JwtError('token is not valid yet');
    const tokenAudiences =
      typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud.filter((a): a is string => typeof a === 'string') : [];
    const matching = tokenAudiences.filter((a) => audiences.includes(a));
    if (matching.length === 0) throw new JwtError('token audiences do not match');
    const k = (claims['kubernetes.io'] ?? {}) as KubernetesClaim;
    const account = k.serviceaccount;
    if (typeof k.namespace !== 'string' || typeof account?.name !== 'string' || typeof account.uid !== 'string')
      throw new JwtError('token has no service account');
    if (claims.sub !== `${SERVICE_ACCOUNT_PREFIX}${k.namespace}:${account.name}`) throw new JwtError('subject does not match the service account');
    const verified: VerifiedToken = {
      namespace: k.namespace,
      serviceAccount: { name: account.name, uid: account.uid },
      audiences: matching,
      expiresAt: claims.exp,
    };
    const pod = refOf(k.pod);
    if (pod) verified.pod = pod;
    const secret = refOf(k.secret);
    if (secret) verified.secret = secret;
    return verified;
  }
}

function refOf(ref: Partial<ObjectRef> | undefined): ObjectRef | undefined {
  return typeof ref?.name === 'string' && typeof ref.uid === 'string' ? { name: ref.name, uid: ref.uid } : undefined;
}
