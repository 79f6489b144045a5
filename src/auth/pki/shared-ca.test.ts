import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openSqliteStore, type SqliteStore } from '../../storage/sqlite/sqlite-store.js';
import { makeSigningKey } from '../serviceaccount/signing-key.js';
import { sharedCaIn, sharedServiceAccountKeyIn } from './shared-ca.js';

let dir: string;
let store: SqliteStore;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'drover-shared-keys-'));
  store = await openSqliteStore({ path: join(dir, 'state.db') });
});
after(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('key material shared through the store', () => {
  test('the service-account key: made by the first server, read by the next, sealed (the private key is not in the store in the clear)', async () => {
    const first = await sharedServiceAccountKeyIn(store, 'secret-of-sixteen')(async () => makeSigningKey());
    const second = await sharedServiceAccountKeyIn(store, 'secret-of-sixteen')(async () => assert.fail('the second server must not make a key'));
    assert.deepEqual(second, first);
    const stored = JSON.stringify(await store.get('/drover/bootstrap/service-account-key'));
    assert.ok(stored.includes(JSON.stringify(first.publicPem).slice(1, 40)));
    assert.ok(!stored.includes('PRIVATE KEY'));
    await assert.rejects(
      sharedServiceAccountKeyIn(store, 'another-secret-16')(async () => makeSigningKey()),
      /service-account signing key in the store is sealed with another token/,
    );
  });

  test('the CA beside it keeps its own slot and shape', async () => {
    const ca = { certPem: 'CERT', keyPem: 'KEY' };
    assert.deepEqual(await sharedCaIn(store, 'secret-of-sixteen')(async () => ca), ca);
    assert.deepEqual(await sharedCaIn(store, 'secret-of-sixteen')(async () => assert.fail('made twice')), ca);
    assert.equal(((await store.get('/drover/bootstrap/cluster-ca'))!['data'] as Record<string, string>)['certificate'], 'CERT');
  });
});
