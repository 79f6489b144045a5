// The admin's sign-in token for the dashboard. A browser cannot present the admin kubeconfig's
// client certificate, so each server keeps a random bearer token in `<data-dir>/dashboard-token`
// (mode 0600, like the kubeconfig it stands beside) that authenticates as the same admin
// (drover-admin in system:masters). It survives restarts, so a bookmarked sign-in keeps working;
// deleting the file and restarting the server revokes it. Besides the file, the token appears in
// one place only: the sign-in address `drover up` / `drover server` print once on a terminal, in
// its URL fragment, which browsers never send to the server (nor in a Referer). Where the output
// goes to a log instead (a service manager, CI), they print the address and the file's path.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { UserInfo } from '../types.js';
import type { TokenAuthenticator } from './authenticator.js';

export interface DashboardToken {
  token: string;
  /** The file that holds it. */
  path: string;
  authenticator: TokenAuthenticator;
}

export async function loadDashboardToken(dataDir: string, admin: UserInfo): Promise<DashboardToken> {
  const path = join(dataDir, 'dashboard-token');
  let token: string;
  try {
    token = (await readFile(path, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    token = '';
  }
  if (token.length < 32) {
    token = randomBytes(32).toString('base64url');
    await writeFile(path, `${token}\n`, { mode: 0o600 });
  }
  // The mode given to writeFile applies only to a new file: one made by hand keeps its own.
  await chmod(path, 0o600);
  const expected = Buffer.from(token);
  return {
    token,
    path,
    authenticator: {
      authenticateToken(given) {
        const bytes = Buffer.from(given);
        return bytes.length === expected.length && timingSafeEqual(bytes, expected) ? admin : undefined;
      },
    },
  };
}

/** The address that signs the admin in: the token rides in the fragment, which stays in the browser. */
export function dashboardSignInUrl(serverUrl: string, token: string): string {
  return `${dashboardAddress(serverUrl)}#token=${encodeURIComponent(token)}`;
}

export function dashboardAddress(serverUrl: string): string {
  return `${serverUrl}/ui/`;
}

/**
 * What `drover up` / `drover server` print last: on a terminal the address that signs the admin
 * in; to a log the address and where the token is, so no log file holds the admin's token.
 */
export function dashboardLine(serverUrl: string, dashboard: Pick<DashboardToken, 'token' | 'path'>, terminal: boolean): string {
  return terminal
    ? `dashboard (signs in as the admin; keep this address private): ${dashboardSignInUrl(serverUrl, dashboard.token)}`
    : `dashboard: ${dashboardAddress(serverUrl)} (sign in with the admin token in ${dashboard.path}; keep it private)`;
}
