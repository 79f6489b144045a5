// The SQLite store with Secrets encrypted at rest: what lands in the file, reading it back,
// rotating keys by rewriting, and the whole store contract with every resource encrypted.
import assert from 'node:assert/strict';
import { readdir, readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { KubeObject } from '../../api/meta.js';
import { aescbc, aesgcm, identity, transformerOf } from '../../../test/support/storage/encryption-config.js';
import { DecryptionError, type ValueTransformer } from '../encryption/transformer.js';
import { isStale } from '../stale-values.js';
import { reopenableHarness, runStoreContract, type StoreHarness } from '../../../test/support/storage/store-contract.js';
import { openSqliteStore, type SqliteStore } from './sqlite-store.js';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'drover-sqlite-encrypt-'));
  dirs.push(dir);
  return dir;
}

const PLAINTEXT = 'correct-horse-battery-staple';
const KEY = '/registry/secrets/default/db';

function secret(): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'default' }, stringData: { password: PLAINTEXT } };
}

/** Every byte of the database, its WAL included, as latin1 text to search in. */
async function fileBytes(dir: string): Promise<string> {
  const files = (await readdir(dir)).filter((name) => name.startsWith('state.db'));
  const contents = await Promise.all(files.map((name) => readFile(join(dir, name))));
  return Buffer.concat(contents).toString('latin1');
}

/** The stored value's first bytes for `key`, in kv and in every history row, read by SQLite itself. */
function storedPrefixes(path: string, key: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    const live = db.prepare('SELECT CAST(substr(value, 1, 30) AS TEXT) FROM kv WHERE key = ?').pluck().all(key) as string[];
    const history = db
      .prepare('SELECT CAST(substr(coalesce(value, prev), 1, 30) AS TEXT) FROM history WHERE key = ? ORDER BY revision')
      .pluck()
      .all(key) as string[];
    return [...live, ...history].map((text) => /^k8s:enc:\w+:v1:[^:]+:/.exec(text)?.[0] ?? text.slice(0, 12));
  } finally {
    db.close();
  }
}

const gcmFirst = () => transformerOf({ resources: ['secrets'], providers: [aesgcm('key1'), aescbc('key2'), identity] });
const cbcFirst = () => transformerOf({ resources: ['secrets'], providers: [aescbc('key2'), aesgcm('key1'), identity] });

describe('sqlite store, secrets encrypted at rest', () => {
  it('keeps no plaintext of a Secret in the file, and reads it back through every read path', async () => {
    const dir = await tempDir();
    const path = join(dir, 'state.db');
    let store: SqliteStore = await openSqliteStore({ path, transformer: gcmFirst() });
    const created = await store.create(KEY, secret());
    await store.update(KEY, { ...created, metadata: { ...created.metadata, labels: { v: '2' } } });
    await store.create('/registry/configmaps/default/c', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'default' },
      data: { plain: 'visible-config' },
    });
    await store.close();
    const bytes = await fileBytes(dir);
    assert.ok(!bytes.includes(PLAINTEXT), 'the secret is not in the file');
    assert.ok(bytes.includes('k8s:enc:aesgcm:v1:key1:'), 'the sealed value is');
    assert.ok(bytes.includes('visible-config'), 'a resource no rule names is stored as it is');
    assert.deepEqual(storedPrefixes(path, KEY), ['k8s:enc:aesgcm:v1:key1:', 'k8s:enc:aesgcm:v1:key1:', 'k8s:enc:aesgcm:v1:key1:']);

    store = await openSqliteStore({ path, transformer: gcmFirst() });
    try {
      const read = await store.get(KEY);
      assert.equal((read?.['stringData'] as Record<string, string>)['password'], PLAINTEXT);
      assert.ok(read && !isStale(read));
      assert.match(Buffer.from((await store.getRaw(KEY))!).toString(), new RegExp(PLAINTEXT));
      assert.equal((await store.list({ prefix: '/registry/secrets/' })).items.length, 1);
      assert.match(Buffer.from((await store.listRaw({ prefix: '/registry/' })).items[1]!).toString(), new RegExp(PLAINTEXT));
      const stream = store.listStream({ prefix: '/registry/' });
      assert.match(stream.next()!, new RegExp(`visible-config.*${PLAINTEXT}`));
      // A page of an earlier revision is rebuilt from history's prev values.
      const earlier = await store.list({ prefix: '/registry/secrets/', revision: 1 });
      assert.equal(earlier.items[0]?.metadata.labels, undefined);
      const events: string[] = [];
      await new Promise<void>((resolve) => {
        const watch = store.watch({ prefix: '/registry/secrets/', fromRevision: 0 }, (event) => {
          events.push(`${event.type} ${event.objectJson?.includes(PLAINTEXT)} ${event.prevObject === undefined ? '-' : 'prev'}`);
          if (events.length === 2) {
            watch.stop();
            resolve();
          }
        });
      });
      assert.deepEqual(events, ['ADDED true -', 'MODIFIED true prev']);
    } finally {
      await store.close();
    }
  });

  it('after the providers are reordered, values read stale and a rewrite moves them to the new first key', async () => {
    const dir = await tempDir();
    const path = join(dir, 'state.db');
    let store: SqliteStore = await openSqliteStore({ path, transformer: gcmFirst() });
    await store.create(KEY, secret());
    await store.close();

    store = await openSqliteStore({ path, transformer: cbcFirst() });
    const old = await store.get(KEY);
    assert.ok(old !== undefined && isStale(old), 'read with a key that is no longer the first: stale');
    await store.update(KEY, old);
    const rewritten = await store.get(KEY);
    assert.ok(rewritten !== undefined && !isStale(rewritten));
    await store.close();
    // kv, then history: the create under key1, the rewrite under key2 (its prev stays sealed).
    assert.deepEqual(storedPrefixes(path, KEY), ['k8s:enc:aescbc:v1:key2:', 'k8s:enc:aesgcm:v1:key1:', 'k8s:enc:aescbc:v1:key2:']);
    assert.ok(!(await fileBytes(dir)).includes(PLAINTEXT));
  });

  it('a value no provider can open fails with DecryptionError naming key and resource; other writes go on', async () => {
    const dir = await tempDir();
    const path = join(dir, 'state.db');
    let store: SqliteStore = await openSqliteStore({ path, transformer: gcmFirst() });
    await store.create(KEY, secret());
    await store.close();
    store = await openSqliteStore({ path, transformer: transformerOf({ resources: ['secrets'], providers: [aescbc('other')] }) });
    try {
      await assert.rejects(
        store.get(KEY),
        (error: unknown) => error instanceof DecryptionError && /cannot decrypt \/registry\/secrets\/default\/db \(resource secrets\)/.test(error.message),
      );
      await assert.rejects(store.list({ prefix: '/registry/secrets/' }), DecryptionError);
      assert.throws(() => store.listStream({ prefix: '/registry/' }).next(), DecryptionError);
      // In one group commit: the failed delete takes nothing else with it.
      const [deleted, other] = await Promise.allSettled([
        store.delete(KEY),
        store.create('/registry/secrets/default/new', { ...secret(), metadata: { name: 'new', namespace: 'default' } }),
      ]);
      assert.equal(deleted.status, 'rejected');
      assert.equal(other.status, 'fulfilled');
    } finally {
      await store.close();
    }
  });
});

// Every read path of the contract (lists at a revision, streams, watch replay) with every value sealed.
async function harness(transformer: ValueTransformer): Promise<StoreHarness> {
  const path = join(await tempDir(), 'state.db');
  return reopenableHarness(
    () => openSqliteStore({ path, transformer }),
    async (store) => store.compact(await store.currentRevision()),
  );
}

runStoreContract('sqlite, every resource encrypted (aesgcm)', () => harness(transformerOf({ resources: ['*.*'], providers: [aesgcm('all')] })));
