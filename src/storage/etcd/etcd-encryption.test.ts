// The etcd store with Secrets encrypted at rest, against a real etcd member: the bytes etcd holds,
// every read path, key rotation by rewrite, and the store contract with every resource sealed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Etcd3 } from 'etcd3';
import type { KubeObject } from '../../api/meta.js';
import { aescbc, aesgcm, identity, transformerOf } from '../../../test/support/storage/encryption-config.js';
import { DecryptionError, type ValueTransformer } from '../encryption/transformer.js';
import { isStale } from '../stale-values.js';
import { reopenableHarness, runStoreContract, type StoreHarness } from '../../../test/support/storage/store-contract.js';
import { createEtcdClient } from './etcd-client.js';
import { openEtcdStore, type EtcdStore } from './etcd-store.js';
import { startEtcd, type EtcdMember } from '../../../test/support/storage/etcd-member.js';

let member: EtcdMember;
let raw: Etcd3;
let clusters = 0;
before(async () => {
  member = await startEtcd();
  raw = createEtcdClient({ endpoints: [member.endpoint] });
});
after(async () => {
  raw?.close();
  await member?.cleanup();
});

const PLAINTEXT = 'correct-horse-battery-staple';
const KEY = '/registry/secrets/default/db';
const gcmFirst = () => transformerOf({ resources: ['secrets'], providers: [aesgcm('key1'), aescbc('key2'), identity] });
const cbcFirst = () => transformerOf({ resources: ['secrets'], providers: [aescbc('key2'), aesgcm('key1'), identity] });

function secret(name = 'db'): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'default' }, stringData: { password: PLAINTEXT } };
}

const newPrefix = () => `/encrypt-${process.pid}-${++clusters}`;
const open = (keyPrefix: string, transformer: ValueTransformer) =>
  openEtcdStore({ endpoints: [member.endpoint], keyPrefix, compactIntervalMs: 0, defrag: false, transformer });

async function etcdValue(key: string): Promise<Buffer> {
  const value = await raw.get(key).buffer();
  assert.ok(value !== null, `${key} is in etcd`);
  return value;
}

describe('etcd store, secrets encrypted at rest', () => {
  it('etcd holds the sealed value under the Kubernetes prefix; every read path gets the JSON', async () => {
    const prefix = newPrefix();
    const store = await open(prefix, gcmFirst());
    try {
      const events: string[] = [];
      const watched = new Promise<void>((resolve) => {
        const watch = store.watch({ prefix: '/registry/secrets/' }, (event) => {
          events.push(`${event.type} ${event.objectJson?.includes(PLAINTEXT)} ${event.prevObject === undefined ? '-' : 'prev'}`);
          if (events.length === 2) {
            watch.stop();
            resolve();
          }
        });
      });
      const created = await store.create(KEY, secret());
      await store.update(KEY, { ...created, metadata: { ...created.metadata, labels: { v: '2' } } });
      const value = await etcdValue(prefix + KEY);
      assert.equal(value.subarray(0, 23).toString(), 'k8s:enc:aesgcm:v1:key1:');
      assert.ok(!value.includes(PLAINTEXT));
      const read = await store.get(KEY);
      assert.equal((read?.['stringData'] as Record<string, string>)['password'], PLAINTEXT);
      assert.ok(read && !isStale(read));
      assert.match(
        Buffer.from((await store.getRaw(KEY))!).toString(),
        new RegExp(`${PLAINTEXT}.*"resourceVersion":"\\d+"|"resourceVersion":"\\d+".*${PLAINTEXT}`),
      );
      assert.equal((await store.list({ prefix: '/registry/secrets/', filter: (object) => object.metadata.labels?.['v'] === '2' })).items.length, 1);
      assert.match(Buffer.from((await store.listRaw({ prefix: '/registry/' })).items[0]!).toString(), new RegExp(PLAINTEXT));
      await watched;
      assert.deepEqual(events, ['ADDED true -', 'MODIFIED true prev']);
      // A value history replays (a watch from revision 0 of this prefix) is opened as well.
      const replayed = await new Promise<string>((resolve) => {
        const watch = store.watch({ prefix: '/registry/secrets/', fromRevision: Number(created.metadata.resourceVersion) - 1 }, (event) => {
          watch.stop();
          resolve(event.objectJson ?? '');
        });
      });
      assert.match(replayed, new RegExp(PLAINTEXT));
      const deleted = await store.delete(KEY);
      assert.equal((deleted['stringData'] as Record<string, string>)['password'], PLAINTEXT);
    } finally {
      await store.close();
    }
  });

  it('aesgcm binds the value to the full etcd key: copied to another key it does not decrypt', async () => {
    const prefix = newPrefix();
    const store = await open(prefix, gcmFirst());
    try {
      await store.create(KEY, secret());
      await raw.put(`${prefix}/registry/secrets/default/copy`).value(await etcdValue(prefix + KEY));
      await assert.rejects(
        store.get('/registry/secrets/default/copy'),
        (error: unknown) => error instanceof DecryptionError && /cannot decrypt \/registry\/secrets\/default\/copy \(resource secrets\)/.test(error.message),
      );
    } finally {
      await store.close();
    }
  });

  it('after the providers are reordered, values read stale and a rewrite moves them to the new first key', async () => {
    const prefix = newPrefix();
    const before = await open(prefix, gcmFirst());
    await before.create(KEY, secret());
    await before.close();
    const store: EtcdStore = await open(prefix, cbcFirst());
    try {
      const old = await store.get(KEY);
      assert.ok(old !== undefined && isStale(old));
      await store.update(KEY, old);
      assert.equal((await etcdValue(prefix + KEY)).subarray(0, 23).toString(), 'k8s:enc:aescbc:v1:key2:');
      const rewritten = await store.get(KEY);
      assert.ok(rewritten !== undefined && !isStale(rewritten));
    } finally {
      await store.close();
    }
  });
});

async function harness(): Promise<StoreHarness> {
  const keyPrefix = newPrefix();
  return reopenableHarness(
    () => open(keyPrefix, transformerOf({ resources: ['*.*'], providers: [aesgcm('all')] })),
    (store) => store.compact(),
  );
}

runStoreContract('etcd, every resource encrypted (aesgcm)', () => harness());
