import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dashboardLine, dashboardSignInUrl, loadDashboardToken } from './dashboard-token.js';

const admin = { username: 'drover-admin', groups: ['system:masters'] };

describe("the dashboard's admin token", () => {
  let dir: string;
  before(async () => (dir = await mkdtemp(join(tmpdir(), 'drover-dashboard-token-'))));
  after(async () => rm(dir, { recursive: true, force: true }));

  it('is made once, kept 0600 in the data dir, and the same after a restart', async () => {
    const first = await loadDashboardToken(dir, admin);
    assert.ok(first.token.length >= 32);
    assert.equal((await stat(first.path)).mode & 0o777, 0o600);
    assert.equal((await readFile(first.path, 'utf8')).trim(), first.token);
    assert.equal((await loadDashboardToken(dir, admin)).token, first.token);
  });

  it('authenticates as the admin, and nothing else does', async () => {
    const { token, authenticator } = await loadDashboardToken(dir, admin);
    assert.deepEqual(await authenticator.authenticateToken(token), admin);
    assert.equal(await authenticator.authenticateToken(`${token}x`), undefined);
    assert.equal(await authenticator.authenticateToken(''), undefined);
  });

  it('a file emptied (or too short) by hand is replaced with a new token: a weak one is never used', async () => {
    const path = join(dir, 'dashboard-token');
    await writeFile(path, 'short\n', { mode: 0o644 });
    const { token } = await loadDashboardToken(dir, admin);
    assert.notEqual(token, 'short');
    assert.equal((await stat(path)).mode & 0o777, 0o600, 'and the file is made private again');
    assert.ok(token.length >= 32);
  });

  it('rides in the sign-in address after #, which browsers never send', () => {
    assert.equal(dashboardSignInUrl('https://127.0.0.1:6443', 'a_b-c'), 'https://127.0.0.1:6443/ui/#token=a_b-c');
  });

  it('prints the token only to a terminal; a log gets the address and the file', () => {
    const dashboard = { token: 'secret-token', path: '/data/dashboard-token' };
    assert.equal(
      dashboardLine('https://127.0.0.1:6443', dashboard, true),
      'dashboard (signs in as the admin; keep this address private): https://127.0.0.1:6443/ui/#token=secret-token',
    );
    const logged = dashboardLine('https://127.0.0.1:6443', dashboard, false);
    assert.equal(logged, 'dashboard: https://127.0.0.1:6443/ui/ (sign in with the admin token in /data/dashboard-token; keep it private)');
    assert.ok(!logged.includes('secret-token'));
  });
});
