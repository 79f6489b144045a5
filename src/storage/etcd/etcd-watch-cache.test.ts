// The etcd store's watch cache against a real etcd member: lists come from memory once a
// resource's cache is filled, and they still see every write acknowledged before them, made
// through this store or another one (another API server) on the same etcd.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { pod, podKey, PODS } from '../../../test/support/storage/contract/helpers.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { openEtcdStore, type EtcdStore } from './etcd-store.js';
import { compareUtf8Order, ResourceCache } from './resource-cache.js';
import { resourceOf, WatchCaches } from './etcd-watch-cache.js';
import { createEtcdClient } from './etcd-client.js';
import { EtcdKeys } from './etcd-keys.js';
import { listKvs } from './etcd-list.js';
import { startEtcd, type EtcdMember } from '../../../test/support/storage/etcd-member.js';

let member: EtcdMember;
let clusters = 0;
before(async () => {
  member = await startEtcd();
});
after(() => member?.cleanup());

/** Two servers' stores on one cluster: `cached` with its watch cache, `direct` reading etcd for every list. */
async function twoServers(): Promise<{ cached: EtcdStore; direct: EtcdStore; close(): Promise<void> }> {
  const keyPrefix = `/cache-test-${process.pid}-${++clusters}`;
  const options = { endpoints: [member.endpoint], keyPrefix, compactIntervalMs: 0, defrag: false as const };
  const cached = await openEtcdStore(options);
  const direct = await openEtcdStore({ ...options, watchCache: false });
  return { cached, direct, close: async () => void (await Promise.all([cached.close(), direct.close()])) };
}

const summary = (items: KubeObject[]) => items.map((item) => `${item.metadata.name}@${item.metadata.resourceVersion}`);
const padded = (i: number) => `p-${String(i).padStart(3, '0')}`;

/** Lists until one is served from the cache (the first starts filling it). */
async function warm(store: EtcdStore): Promise<void> {
  await waitFor(
    'the pods cache to serve a list',
    async () => {
      const { hits } = store.watchCacheStats;
      await store.list({ prefix: PODS });
      return store.watchCacheStats.hits > hits;
    },
    10_000,
  );
}

describe('etcd store, watch cache', () => {
  it('serves lists from memory that see every write made before them, through any server', async () => {
    const { cached, direct, close } = await twoServers();
    try {
      for (let i = 0; i < 30; i++) await cached.create(podKey(padded(i)), pod(padded(i), { app: i % 3 === 0 ? 'web' : 'db' }));
      await warm(cached);
      // Each kind of write through the other server, then at once a list through the cached one.
      const writes: Array<[string, () => Promise<unknown>]> = [
        ['a create', () => direct.create(podKey('new'), pod('new'))],
        ['an update', () => direct.update(podKey(padded(4)), pod(padded(4), { app: 'web' }))],
        ['a delete', () => direct.delete(podKey(padded(7)))],
        ['a write elsewhere', () => direct.create('/registry/services/default/s', pod('s'))],
      ];
      for (const [what, write] of writes) {
        await write();
        const expected = await direct.list({ prefix: PODS });
        const listed = await cached.list({ prefix: PODS });
        assert.deepEqual(summary(listed.items), summary(expected.items), `after ${what}`);
        assert.equal(listed.revision, expected.revision, `the revision after ${what}`);
        assert.equal(listed.revision, await direct.currentRevision());
      }
      // Once its watch has delivered those writes, the cache serves lists again.
      await warm(cached);
      // The same objects, whichever way they are read.
      const raw = await cached.listRaw({ prefix: PODS });
      assert.deepEqual(
        raw.items.map((bytes) => JSON.parse(Buffer.from(bytes).toString('utf8')) as KubeObject),
        (await direct.list({ prefix: PODS })).items,
      );
    } finally {
      await close();
    }
  });

  it('serves lists from memory under a steady stream of writes, each seeing every write acknowledged before it', async () => {
    const { cached, direct, close } = await twoServers();
    try {
      for (let i = 0; i < 20; i++) await cached.create(podKey(padded(i)), pod(padded(i)));
      await warm(cached);
      // Another server creates and updates pods without pause while this one lists.
      const acknowledged: string[] = [];
      let writing = true;
      const writer = (async () => {
        for (let i = 0; writing; i++) {
          await direct.create(podKey(`w-${i}`), pod(`w-${i}`));
          acknowledged.push(`w-${i}`);
          await direct.update(podKey(padded(i % 20)), pod(padded(i % 20), { round: String(i) }));
        }
      })();
      const { hits } = cached.watchCacheStats;
      const lists = 20;
      let lastRevision = 0;
      try {
        for (let n = 0; n < lists; n++) {
          const known = [...acknowledged];
          const listed = await cached.list({ prefix: PODS });
          const names = new Set(listed.items.map((item) => item.metadata.name));
          for (const name of known) assert.ok(names.has(name), `list ${n} holds ${name}, created before it`);
          assert.ok(listed.revision >= lastRevision, 'the revision never goes back');
          lastRevision = listed.revision;
        }
      } finally {
        writing = false;
        await writer;
      }
      // Each list waits for one watch event at most: most are served from memory, not etcd.
      const served = cached.watchCacheStats.hits - hits;
      assert.ok(served > lists / 2, `${served} of ${lists} lists came from the cache`);
    } finally {
      await close();
    }
  });

  it('pages and filters from the cache as etcd does, and continues them from etcd at the same revision', async () => {
    const { cached, direct, close } = await twoServers();
    try {
      for (let i = 0; i < 23; i++) await direct.create(podKey(padded(i)), pod(padded(i), { app: i % 3 === 0 ? 'web' : 'db' }));
      assert.equal((await cached.list({ prefix: PODS })).items.length, 23);
      assert.deepEqual(cached.watchCacheStats, { hits: 1, misses: 0 }, 'the first list waited for the cache to fill, and was served from it');
      const web = (object: KubeObject) => object.metadata.labels?.['app'] === 'web';
      for (const options of [
        { prefix: PODS, limit: 5 },
        { prefix: PODS, limit: 3, filter: web },
        { prefix: `${PODS}default/`, filter: web },
      ]) {
        // Caught up with the last round's write: with none since, the next list is the cache's.
        await warm(cached);
        const { hits } = cached.watchCacheStats;
        const first = await cached.list(options);
        assert.equal(cached.watchCacheStats.hits, hits + 1, 'the first page came from the cache');
        const items = [...first.items];
        const seen = [first.remainingItemCount];
        let token = first.continue;
        // A write between pages: continued pages still show the first page's revision.
        await direct.update(podKey(padded(0)), pod(padded(0), { app: 'web', v: '2' }));
        while (token !== undefined) {
          const page = await cached.list({ ...options, continue: token });
          assert.equal(page.revision, first.revision);
          items.push(...page.items);
          seen.push(page.remainingItemCount);
          token = page.continue;
        }
        const expected = await direct.list({ prefix: options.prefix, revision: first.revision, ...(options.filter ? { filter: options.filter } : {}) });
        assert.deepEqual(summary(items), summary(expected.items));
        if (!options.filter && options.limit) assert.equal(first.remainingItemCount, 23 - options.limit);
      }
      await assert.rejects(cached.list({ prefix: PODS, limit: 2, continue: 'not-a-token' }));
    } finally {
      await close();
    }
  });

  it('a cache whose watch has not delivered a write is not served until it has', async () => {
    const { direct, close } = await twoServers();
    const keyPrefix = `/cache-test-${process.pid}-${clusters}`;
    const client = createEtcdClient({ endpoints: [member.endpoint] });
    const keys = new EtcdKeys(keyPrefix);
    // The cache's watch events wait here until the test lets them through.
    const held: Array<() => void> = [];
    const release = () => held.splice(0).forEach((deliver) => deliver());
    const heldEvent = () => waitFor("the write's event to reach the cache's watch", () => held.length === 1, 10_000);
    const caches = new WatchCaches({
      keys,
      range: (request) => client.kv.range(request),
      listPage: (options) => listKvs({ keys, range: (request) => client.kv.range(request), compacted: () => 0 }, options),
      watch: (options, onEvent, onError) => direct.watch(options, (event) => held.push(() => onEvent(event)), onError),
    });
    try {
      for (let i = 0; i < 5; i++) await direct.create(podKey(padded(i)), pod(padded(i)));
      const listed = () => caches.list({ prefix: PODS });
      await waitFor('the cache to fill', listed, 10_000);
      for (const write of [
        () => direct.create(podKey('new'), pod('new')),
        () => direct.delete(podKey(padded(1))),
        () => direct.update(podKey(padded(2)), pod(padded(2), { v: '2' })),
      ]) {
        await write();
        await heldEvent();
        assert.equal(await listed(), undefined, 'a cache behind etcd reads etcd instead');
        release();
        const page = await listed();
        assert.ok(page !== undefined, 'served once its watch delivered the write');
        const expected = await direct.list({ prefix: PODS });
        assert.deepEqual(
          page.values.map((value) => value.toString()),
          expected.items.map((item) => JSON.stringify(item)),
        );
        assert.equal(page.revision, expected.revision);
      }
      // A write in another namespace, not yet delivered: a list of this namespace is still the
      // cache's (its keys are current), a list of every pod is not.
      await direct.create(podKey('elsewhere', 'other'), pod('elsewhere'));
      await heldEvent();
      const inDefault = await caches.list({ prefix: `${PODS}default/` });
      assert.ok(inDefault !== undefined, 'a namespace the write did not touch is served from the cache');
      assert.deepEqual(
        inDefault.values.map((value) => value.toString()),
        (await direct.list({ prefix: `${PODS}default/` })).items.map((item) => JSON.stringify(item)),
      );
      assert.equal(await listed(), undefined, 'the whole resource, behind etcd, is not');
      release();
      // A delete whose event never comes (etcd sends none once its previous value is compacted):
      // the cache, past it with a later event, is seen to be wrong, dropped, and filled again.
      await direct.delete(podKey(padded(3)));
      await heldEvent();
      held.length = 0;
      await direct.create(podKey('later'), pod('later'));
      await heldEvent();
      release();
      assert.equal(await listed(), undefined, 'a cache that lost a delete is not served');
      const refilled = await waitFor('a cache filled again', listed, 10_000);
      assert.deepEqual(
        refilled.values.map((value) => value.toString()),
        (await direct.list({ prefix: PODS })).items.map((item) => JSON.stringify(item)),
      );
      // A lost delete with no write after it: only the key count shows the cache wrong, and once
      // that has lasted a few seconds with no event at all, the cache is filled again.
      await direct.delete(podKey(padded(4)));
      await heldEvent();
      held.length = 0;
      assert.equal(await listed(), undefined, 'a cache short of a delete is not served');
      const expected = (await direct.list({ prefix: PODS })).items.map((item) => JSON.stringify(item));
      const current = await waitFor(
        'the cache that lost its last delete filled again',
        async () => {
          const page = await listed();
          return page?.values.length === expected.length ? page : undefined;
        },
        20_000,
      );
      assert.deepEqual(
        current.values.map((value) => value.toString()),
        expected,
      );
    } finally {
      caches.close();
      client.close();
      await close();
    }
  });

  it('a resource listed once is cached; events are not', () => {
    assert.equal(resourceOf('/registry/pods/default/'), '/registry/pods/');
    assert.equal(resourceOf('/registry/deployments.apps/'), '/registry/deployments.apps/');
    assert.equal(resourceOf('/registry/'), undefined);
    assert.equal(resourceOf('/registry/events/default/'), undefined);
    assert.equal(resourceOf('/registry/events.events.k8s.io/'), undefined);
  });
});

describe('resource cache', () => {
  it('orders keys as etcd does, by UTF-8 bytes', () => {
    const keys = ['a', 'b', 'a/b', 'a-b', '\u{1F600}', '\uFF21', '\u00e9', 'z', '', 'ab', '\uE000', '\u{10000}x'];
    const byBytes = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    assert.deepEqual([...keys].sort(compareUtf8Order), byBytes);
  });

  it('keeps keys in order through puts and removes, and ranges and counts by prefix', () => {
    const cache = new ResourceCache(1);
    const bytes = (text: string) => Buffer.from(text);
    for (const key of ['/p/b/2', '/p/a/1', '/p/b/1', '/p/c/1', '/p/a/2']) cache.put(key, bytes(key), 2);
    cache.put('/p/a/1', bytes('again'), 3);
    cache.remove('/p/c/1', 4);
    cache.remove('/p/none', 5);
    assert.equal(cache.revision, 5);
    assert.equal(cache.size, 4);
    const entries = (prefix: string, after?: string, upTo = Infinity) => {
      const seen: string[] = [];
      cache.scan(
        prefix,
        (key, value) => {
          seen.push(`${key}=${value.toString()}`);
          return seen.length < upTo;
        },
        after,
      );
      return seen;
    };
    assert.deepEqual(entries('/p/'), ['/p/a/1=again', '/p/a/2=/p/a/2', '/p/b/1=/p/b/1', '/p/b/2=/p/b/2']);
    assert.deepEqual(entries('/p/a/'), ['/p/a/1=again', '/p/a/2=/p/a/2']);
    assert.deepEqual(entries('/p/', '/p/a/2'), ['/p/b/1=/p/b/1', '/p/b/2=/p/b/2']);
    assert.deepEqual(entries('/p/', undefined, 1), ['/p/a/1=again']);
    assert.deepEqual(entries('/q/'), []);
    assert.equal(cache.countAfter('/p/', '/p/a/1'), 3);
    assert.equal(cache.countAfter('/p/a/', '/p/a/1'), 1);
    assert.equal(cache.countAfter('/p/b/', '/p/b/2'), 0);
  });
});

describe('watch cache fills', () => {
  it('a fill that fails is not tried again by every list: lists read etcd for a back-off, then one fills again', async () => {
    let fills = 0;
    const caches = new WatchCaches({
      keys: new EtcdKeys(''),
      range: () => Promise.reject(new Error('no range is read while no cache is filled')),
      listPage: async () => {
        fills++;
        throw new Error('a value the server cannot decrypt');
      },
      watch: () => {
        throw new Error('no watch starts for a failed fill');
      },
    });
    try {
      assert.equal(await caches.list({ prefix: PODS }), undefined, 'the failed fill: the list reads etcd');
      assert.equal(fills, 1);
      for (let i = 0; i < 5; i++) assert.equal(await caches.list({ prefix: `${PODS}default/` }), undefined);
      assert.equal(fills, 1, 'lists during the back-off start no fill');
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      assert.equal(await caches.list({ prefix: PODS }), undefined);
      assert.equal(fills, 2, 'after the back-off, a list fills again');
      assert.equal(await caches.list({ prefix: PODS }), undefined);
      assert.equal(fills, 2, 'and the next back-off is longer');
    } finally {
      caches.close();
    }
  });
});
