// Compact JWS (RFC 7515/7519) with node:crypto alone: ES256 (ECDSA P-256, signatures in the
// IEEE P1363 r||s form JWS asks for, not DER) or RS256. Only what service-account tokens need;
// no library, because signing and checking a JWT is a few lines and these are the only tokens
// the server makes. `kid` is Kubernetes' key id: base64url(SHA-256(DER public key)).
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

export type JwtAlgorithm = 'ES256' | 'RS256';

export interface JwtClaims {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  exp?: number;
  iat?: number;
  nbf?: number;
  jti?: string;
  [claim: string]: unknown;
}

export class JwtError extends Error {
  override name = 'JwtError';
}

export function algorithmOf(key: KeyObject): JwtAlgorithm {
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  throw new JwtError(`unsupported signing key: ${key.asymmetricKeyType ?? 'unknown'} (use ECDSA P-256 or RSA)`);
}

export function keyId(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
}

function signOptions(key: KeyObject): { key: KeyObject; dsaEncoding?: 'ieee-p1363' } {
  return algorithmOf(key) === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : { key };
}

export function signJwt(claims: JwtClaims, privateKey: KeyObject): string {
  const publicKey = createPublicKey(privateKey);
  const header = { alg: algorithmOf(privateKey), kid: keyId(publicKey) };
  const input = `${part(header)}.${part(claims)}`;
  const signature = sign('sha256', Buffer.from(input), signOptions(privateKey));
  return `${input}.${signature.toString('base64url')}`;
}

/** The claims of a token signed by `publicKey`; throws JwtError for anything else. Times are not checked here. */
export function verifyJwt(token: string, publicKey: KeyObject): JwtClaims {
  const parts = token.split('.');
  if (parts.length !== 3) throw new JwtError('not a compact JWT');
  const [headerPart, claimsPart, signaturePart] = parts as [string, string, string];
  const header = decodePart(headerPart);
  // The algorithm is the key's, never the header's: a token cannot choose `none` or HS256.
  if (header['alg'] !== algorithmOf(publicKey)) throw new JwtError(`unexpected algorithm ${String(header['alg'])}`);
  const ok = verify('sha256', Buffer.from(`${headerPart}.${claimsPart}`), signOptions(publicKey), Buffer.from(signaturePart, 'base64url'));
  if (!ok) throw new JwtError('invalid signature');
  return decodePart(claimsPart) as JwtClaims;
}

/** The claims without checking the signature: only to tell whose token it is before verifying. */
export function peekClaims(token: string): JwtClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    return decodePart(parts[1]!) as JwtClaims;
  } catch {
    return undefined;
  }
}

function part(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decodePart(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new JwtError('malformed JWT');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new JwtError('malformed JWT');
  return value as Record<string, unknown>;
}
