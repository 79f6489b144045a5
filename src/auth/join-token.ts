// The cluster's join token, as k3s' `K10<ca-hash>::server:<secret>`: `D10<ca-sha256>::<secret>`.
// The secret authenticates a joining agent once (it asks for its own certificate with it) and,
// on a store several servers share, unlocks the cluster CA kept there; the CA hash lets an agent
// trust the server it has never seen: it fetches /cacerts and keeps the CA only if it matches.
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const PREFIX = 'D10';

export interface JoinToken {
  /** pemHash of the cluster CA; '' in a bare secret (a server's --token before the CA exists). */
  caHash: string;
  secret: string;
}

export function formatJoinToken(token: JoinToken): string {
  return `${PREFIX}${token.caHash}::${token.secret}`;
}

/** A full token (D10<hash>::<secret>), or a bare secret as a server's --token may be. */
export function parseJoinToken(text: string): JoinToken {
  const trimmed = text.trim();
  const full = /^D10([0-9a-f]{64})::(.+)$/.exec(trimmed);
  if (full) return { caHash: full[1]!, secret: full[2]! };
  if (trimmed.startsWith(PREFIX) && trimmed.includes('::')) throw new Error('the join token is malformed: expected D10<64 hex digits>::<secret>');
  if (trimmed.length < 16) throw new Error('the token secret is too short: use at least 16 characters');
  return { caHash: '', secret: trimmed };
}

/**
 * The server's token secret: the one given (--token), else the one in `<data-dir>/token` from an
 * earlier start, else a new one. The full token (with the CA hash) is written back there.
 */
export async function serverTokenSecret(dataDir: string, given: string | undefined): Promise<string> {
  if (given !== undefined) return parseJoinToken(given).secret;
  try {
    return parseJoinToken(await readFile(tokenPath(dataDir), 'utf8')).secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return randomBytes(16).toString('hex');
  }
}

export async function writeServerToken(dataDir: string, token: JoinToken): Promise<string> {
  const path = tokenPath(dataDir);
  await writeFile(path, `${formatJoinToken(token)}\n`, { mode: 0o600 });
  return path;
}

export function tokenPath(dataDir: string): string {
  return join(dataDir, 'token');
}
