// The opaque continue token of a paged list: where the next page starts and which revision the
// first page was read at. Shared by every Store implementation so tokens look the same to clients.
import { InvalidContinueTokenError } from './errors.js';

export interface ContinuePosition {
  /** The last key returned; the next page starts strictly after it. */
  key: string;
  /** The revision of the first page; continued pages report it, and expire with it. */
  revision: number;
}

export function encodeContinueToken(position: ContinuePosition): string {
  return Buffer.from(JSON.stringify({ k: position.key, r: position.revision })).toString('base64url');
}

/** Throws InvalidContinueTokenError unless `token` came from encodeContinueToken for this prefix. */
export function decodeContinueToken(token: string, prefix: string): ContinuePosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidContinueTokenError('not a token this server issued');
  }
  const { k, r } = (parsed ?? {}) as { k?: unknown; r?: unknown };
  if (typeof k !== 'string' || typeof r !== 'number' || !Number.isSafeInteger(r) || r < 0) {
    throw new InvalidContinueTokenError('not a token this server issued');
  }
  // A token from another prefix would silently start the scan somewhere unrelated.
  if (!k.startsWith(prefix)) throw new InvalidContinueTokenError('issued for a different list');
  return { key: k, revision: r };
}
