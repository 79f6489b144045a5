import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadSigningKey, makeSigningKey, signingKeyOf } from './signing-key.js';
import { DEFAULT_ISSUER, ServiceAccountTokens } from './tokens.js';

const key = signingKeyOf(makeSigningKey());
const subject = { namespace: 'dev', serviceAccount: { name: 'robot', uid: 'sa-uid' } };

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}

describe('service-account tokens', () => {
  test('claims as Kubernetes writes them', () => {
    const tokens = new ServiceAccountTokens(key, { now: () => 1_000_000 });
    const { token, expiresAt } = tokens.issue({ ...subject, pod: { name: 'p', uid: 'pod-uid' }, audiences: [DEFAULT_ISSUER], expirationSeconds: 3607 });
    assert.equal(expiresAt, 1_003_607);
    const claims = claimsOf(token);
    assert.equal(claims['iss'], DEFAULT_ISSUER);
    assert.equal(claims['sub'], 'system:serviceaccount:dev:robot');
    assert.deepEqual(claims['aud'], [DEFAULT_ISSUER]);
    assert.equal(claims['iat'], 1_000_000);
    assert.equal(claims['nbf'], 1_000_000);
    assert.equal(claims['exp'], 1_003_607);
    assert.deepEqual(claims['kubernetes.io'], { namespace: 'dev', serviceaccount: { name: 'robot', uid: 'sa-uid' }, pod: { name: 'p', uid: 'pod-uid' } });
    assert.deepEqual(tokens.verify(token), { ...subject, pod: { name: 'p', uid: 'pod-uid' }, audiences: [DEFAULT_ISSUER], expiresAt: 1_003_607 });
  });

  test('expired (past the 60 s leeway), not yet valid, wrong audience, another key, another issuer: refused', () => {
    let now = 1_000_000;
    const tokens = new ServiceAccountTokens(key, { now: () => now });
    const { token } = tokens.issue({ ...subject, audiences: [DEFAULT_ISSUER], expirationSeconds: 600 });
    now += 600 + 59;
    assert.ok(tokens.verify(token));
    now += 2;
    assert.throws(() => tokens.verify(token), /expired/);
    now = 1_000_000 - 120;
    assert.throws(() => tokens.verify(token), /not valid yet/);
    now = 1_000_000;
    assert.throws(() => tokens.verify(token, ['https://vault.example']), /audiences/);
    const vault = tokens.issue({ ...subject, audiences: ['https://vault.example'], expirationSeconds: 600 }).token;
    assert.throws(() => tokens.verify(vault), /audiences/);
    assert.deepEqual(tokens.verify(vault, ['https://vault.example']).audiences, ['https://vault.example']);
    const stranger = new ServiceAccountTokens(signingKeyOf(makeSigningKey()), { now: () => now });
    assert.throws(() => stranger.verify(token), /signature/);
    const elsewhere = new ServiceAccountTokens(key, { issuer: 'https://other.example', apiAudiences: [DEFAULT_ISSUER], now: () => now });
    assert.throws(() => elsewhere.verify(token), /issuer/);
    assert.equal(elsewhere.claims(token), false);
    assert.equal(tokens.claims(token), true);
  });

  test('the signing key is made once, 0600, and read back on the next start', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'drover-sa-key-'));
    try {
      const first = await loadSigningKey(dir);
      assert.equal((await stat(join(dir, 'service-account.key'))).mode & 0o777, 0o600);
      assert.equal((await stat(join(dir, 'service-account.pub'))).mode & 0o777, 0o600);
      const again = await loadSigningKey(dir);
      const pem = (k: typeof first) => k.publicKey.export({ type: 'spki', format: 'pem' });
      assert.equal(pem(again), pem(first));
      assert.match(await readFile(join(dir, 'service-account.key'), 'utf8'), /BEGIN PRIVATE KEY/);
      // A shared store's key wins over the local one, and is written down locally.
      const shared = makeSigningKey();
      const fromStore = await loadSigningKey(dir, async () => shared);
      assert.equal(pem(fromStore), shared.publicPem);
      assert.equal(await readFile(join(dir, 'service-account.pub'), 'utf8'), shared.publicPem);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
