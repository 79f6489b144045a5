// Contract: list by prefix, filter, limit and continue, including pages under concurrent writes.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { KubeObject } from '../../../../src/api/meta.js';
import { RevisionExpiredError } from '../../../../src/storage/errors.js';
import type { ListOptions, ListStream, Store } from '../../../../src/storage/store.js';
import { type OpenHarness, PODS, pod, podKey, withHarness } from './helpers.js';

interface Paged {
  pages: KubeObject[][];
  revisions: number[];
  remaining: Array<number | undefined>;
}

/** Follows continue tokens to the end; `between` runs after every page but the last. */
async function listAllPages(store: Store, options: ListOptions, between?: (page: number) => Promise<void>): Promise<Paged> {
  const paged: Paged = { pages: [], revisions: [], remaining: [] };
  let token: string | undefined;
  do {
    const result = await store.list({ ...options, ...(token === undefined ? {} : { continue: token }) });
    paged.pages.push(result.items);
    paged.revisions.push(result.revision);
    paged.remaining.push(result.remainingItemCount);
    token = result.continue;
    assert.ok(paged.pages.length < 1_000, 'continue tokens never ran out');
    if (token !== undefined && between !== undefined) await between(paged.pages.length);
  } while (token !== undefined);
  return paged;
}

const names = (items: KubeObject[]): string[] => items.map((item) => item.metadata.name ?? '');
const padded = (i: number): string => `p-${String(i).padStart(3, '0')}`;

async function createPods(store: Store, count: number, labels: (i: number) => Record<string, string> = () => ({})) {
  for (let i = 0; i < count; i++) await store.create(podKey(padded(i)), pod(padded(i), labels(i)));
}

export function listCases(open: OpenHarness): void {
  it('lists the keys under a prefix in key order, and nothing outside it', () =>
    withHarness(open, async ({ store }) => {
      const keys = ['/registry/pods/default/b', '/registry/pods/kube-system/ks-a', '/registry/pods/default/a', '/registry/pods/default/a-2'];
      for (const key of keys) await store.create(key, pod(key.split('/').pop() ?? ''));
      await store.create('/registry/podsecurity/x', pod('x'));
      await store.create('/registry/pod', pod('y'));
      await store.create('/registry/services/default/a', pod('z'));
      const result = await store.list({ prefix: PODS });
      assert.deepEqual(names(result.items), ['a', 'a-2', 'b', 'ks-a']);
      assert.equal(result.revision, await store.currentRevision());
      assert.equal(result.continue, undefined);
      for (const item of result.items) assert.ok(Number(item.metadata.resourceVersion) <= result.revision);
      const one = await store.list({ prefix: '/registry/pods/default/' });
      assert.deepEqual(names(one.items), ['a', 'a-2', 'b']);
    }));

  it('an empty range lists no items at the current revision', () =>
    withHarness(open, async ({ store }) => {
      await store.create(podKey('a'), pod('a'));
      const result = await store.list({ prefix: '/registry/nothing-here/' });
      assert.deepEqual(result.items, []);
      assert.equal(result.revision, await store.currentRevision());
      assert.equal(result.continue, undefined);
    }));

  it('limit pages through everything exactly once; remainingItemCount, when given, is exact', () =>
    withHarness(open, async ({ store }) => {
      await createPods(store, 23);
      const paged = await listAllPages(store, { prefix: PODS, limit: 5 });
      assert.deepEqual(
        names(paged.pages.flat()),
        Array.from({ length: 23 }, (_, i) => padded(i)),
      );
      paged.pages.forEach((page) => assert.ok(page.length <= 5));
      assert.equal(paged.pages[0]?.length, 5);
      let seen = 0;
      paged.pages.forEach((page, i) => {
        seen += page.length;
        const remaining = paged.remaining[i];
        if (remaining !== undefined) assert.equal(remaining, 23 - seen);
      });
      const everything = await store.list({ prefix: PODS, limit: 0 });
      assert.equal(everything.items.length, 23);
      assert.equal(everything.continue, undefined);
    }));

  it('filter runs before limit, so pages hold matching objects only', () =>
    withHarness(open, async ({ store }) => {
      await createPods(store, 30, (i) => ({ app: i % 3 === 0 ? 'web' : 'db' }));
      const filter = (object: KubeObject) => object.metadata.labels?.app === 'web';
      const first = await store.list({ prefix: PODS, filter, limit: 4 });
      assert.deepEqual(names(first.items), [0, 3, 6, 9].map(padded));
      assert.ok(first.continue !== undefined);
      const paged = await listAllPages(store, { prefix: PODS, filter, limit: 4 });
      const expected = Array.from({ length: 10 }, (_, i) => padded(i * 3));
      assert.deepEqual(names(paged.pages.flat()), expected);
      paged.pages.forEach((page) => assert.ok(page.length <= 4));
      assert.deepEqual(names((await store.list({ prefix: PODS, filter })).items), expected);
    }));

  it('continued pages report the revision of the first page', () =>
    withHarness(open, async ({ store }) => {
      await createPods(store, 10);
      const paged = await listAllPages(store, { prefix: PODS, limit: 3 }, async (page) => {
        await store.update(podKey(padded(page)), pod(padded(page), { touched: 'yes' }));
      });
      assert.ok(paged.revisions.length >= 4);
      for (const revision of paged.revisions) assert.equal(revision, paged.revisions[0]);
    }));

  it('pages under concurrent writes return every key that exists throughout exactly once, in order', () =>
    withHarness(open, async ({ store }) => {
      await createPods(store, 40);
      const removed = new Set([3, 12, 25, 33].map(padded));
      let step = 0;
      const paged = await listAllPages(store, { prefix: PODS, limit: 7 }, async () => {
        step++;
        await store.create(podKey(`a-early-${step}`), pod(`a-early-${step}`));
        await store.create(podKey(`p-${step}50`), pod(`p-${step}50`));
        await store.update(podKey(padded(step * 5 + 1)), pod(padded(step * 5 + 1), { step: `${step}` }));
        const victim = [...removed][step - 1];
        if (victim !== undefined) await store.delete(podKey(victim));
      });
      const listed = names(paged.pages.flat());
      assert.deepEqual(listed, [...listed].sort(), 'keys come in key order across pages');
      assert.equal(new Set(listed).size, listed.length, 'no key is listed twice');
      for (let i = 0; i < 40; i++) {
        if (!removed.has(padded(i))) assert.ok(listed.includes(padded(i)), `${padded(i)} missing`);
      }
    }));

  it('continued pages are the collection as of the first page, whatever is written between them', () =>
    withHarness(open, async ({ store }) => {
      await createPods(store, 30, (i) => ({ app: i % 2 === 0 ? 'web' : 'db' }));
      const snapshot = await store.list({ prefix: PODS });
      const web = (object: KubeObject) => object.metadata.labels?.app === 'web';
      const expectedWeb = snapshot.items.filter(web);
      let step = 0;
      const churn = async () => {
        step++;
        await store.create(podKey(`p-${String(step * 3).padStart(3, '0')}x`), pod(`p-${String(step * 3).padStart(3, '0')}x`, { app: 'web' }));
        await store.update(podKey(padded(2 * step - 1)), pod(padded(2 * step - 1), { app: 'web', changed: 'yes' }));
        await store.delete(podKey(padded(30 - 2 * step)));
      };
      const paged = await listAllPages(store, { prefix: PODS, limit: 4 }, churn);
      assert.deepEqual(paged.pages.flat(), snapshot.items, "pages joined are the first page's collection");
      assert.deepEqual(paged.remaining[0], 26);
      assert.ok(expectedWeb.length > 0);
      const webNow = await store.list({ prefix: PODS, filter: web });
      const filtered = await listAllPages(store, { prefix: PODS, limit: 3, filter: web }, churn);
      assert.ok(filtered.revisions.every((r) => r === webNow.revision));
      assert.deepEqual(filtered.pages.flat(), webNow.items, 'filtered pages too');
      const exact = await store.list({ prefix: PODS, revision: snapshot.revision });
      assert.deepEqual(exact.items, snapshot.items, 'an Exact read at the first revision');
      assert.equal(exact.revision, snapshot.revision);
    }));

  it('an Exact read of a compacted revision, or a continue token of one, is expired', (t) =>
    withHarness(open, async ({ store, compact }) => {
      if (compact === undefined) return t.skip('the harness cannot compact');
      await createPods(store, 6);
      const first = await store.list({ prefix: PODS, limit: 2 });
      await store.update(podKey(padded(5)), pod(padded(5), { v: '2' }));
      await compact();
      await assert.rejects(store.list({ prefix: PODS, revision: first.revision }), RevisionExpiredError);
      await assert.rejects(store.list({ prefix: PODS, limit: 2, continue: first.continue! }), RevisionExpiredError);
    }));

  it('listRaw, where offered, returns the same page as list, as UTF-8 JSON', async (t) => {
    await withHarness(open, async ({ store }) => {
      if (store.listRaw === undefined) return t.skip('the store has no listRaw');
      await createPods(store, 12, (i) => ({ app: i % 2 === 0 ? 'web' : 'db' }));
      const filter = (object: KubeObject) => object.metadata.labels?.app === 'web';
      for (const options of [{ prefix: PODS }, { prefix: PODS, limit: 4 }, { prefix: PODS, limit: 2, filter }]) {
        const { items: objects, ...parsedPage } = await store.list(options);
        const { items: texts, ...rawPage } = await store.listRaw(options);
        assert.deepEqual(
          texts.map((bytes) => JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown),
          objects,
        );
        assert.deepEqual(rawPage, parsedPage);
      }
    });
  });

  it('listStream, where offered, reads the collection as of its revision while writes go on', async (t) => {
    await withHarness(open, async ({ store, compact }) => {
      if (store.listStream === undefined) return t.skip('the store has no listStream');
      const prefix = `${PODS}default/`;
      const readAll = (stream: ReturnType<NonNullable<Store['listStream']>>, pages: string[] = []) => {
        for (let page = stream.next(); page !== undefined; page = stream.next()) pages.push(page);
        return JSON.parse(`[${pages.join(',')}]`) as unknown;
      };
      assert.deepEqual(readAll(store.listStream({ prefix })), []);
      // Several pages' worth, so that writes land in pages read before and after them.
      await Promise.all(Array.from({ length: 700 }, (_, i) => store.create(podKey(padded(i)), pod(padded(i)))));
      await store.create(podKey('a', 'other'), pod('a'));
      const before = await store.list({ prefix });
      const stream = store.listStream({ prefix });
      const lines = store.listStream({ prefix, separator: '\n' });
      assert.equal(stream.revision, before.revision);
      const first = stream.next();
      assert.ok(first !== undefined);
      for (const i of [1, 300, 600]) await store.update(podKey(padded(i)), pod(padded(i), { v: '2' }));
      for (const i of [2, 400, 650, 699]) await store.delete(podKey(padded(i)));
      for (const name of ['p-000a', 'p-400a', 'p-650a', 'zz']) await store.create(podKey(name), pod(name));
      await compact?.();
      assert.deepEqual(readAll(stream, [first]), before.items);
      assert.equal(stream.next(), undefined);
      const pages: string[] = [];
      for (let page = lines.next(); page !== undefined; page = lines.next()) pages.push(page);
      assert.deepEqual(
        pages
          .join('\n')
          .split('\n')
          .map((line) => JSON.parse(line) as unknown),
        before.items,
        'items between separators',
      );
    });
  });

  it('listStream, where offered, pages with limit and continue as list does', async (t) => {
    await withHarness(open, async ({ store }) => {
      if (store.listStream === undefined) return t.skip('the store has no listStream');
      await createPods(store, 75);
      const readAll = (stream: ReturnType<NonNullable<Store['listStream']>>) => {
        const pages: string[] = [];
        for (let page = stream.next(); page !== undefined; page = stream.next()) pages.push(page);
        return JSON.parse(`[${pages.join(',')}]`) as unknown;
      };
      for (const limit of [0, 1, 40, 75, 80]) {
        let token: string | undefined;
        do {
          const options = { prefix: PODS, limit, ...(token === undefined ? {} : { continue: token }) };
          const { items, ...listed } = await store.list(options);
          const stream: ListStream = store.listStream(options);
          const { next: _next, close: _close, ...streamed } = stream;
          assert.deepEqual(streamed, listed, `limit ${limit}`);
          assert.deepEqual(readAll(stream), items, `limit ${limit}`);
          // Between pages, so that the next one reads after writes.
          await store.update(podKey(padded(74)), pod(padded(74), { limit: `${limit}` }));
          token = listed.continue;
        } while (token !== undefined);
      }
      await assert.rejects(async () => store.listStream!({ prefix: PODS, continue: 'not-a-token' }));
    });
  });

  it('a continue token that is not one the store issued is rejected', () =>
    withHarness(open, async ({ store }) => {
      await createPods(store, 3);
      await assert.rejects(store.list({ prefix: PODS, continue: 'not-a-token' }));
      const page = await store.list({ prefix: PODS, limit: 1 });
      assert.ok(page.continue !== undefined);
      await assert.rejects(store.list({ prefix: '/registry/services/', continue: page.continue }));
    }));

  it('a continue token from a compacted revision throws RevisionExpiredError', async (t) => {
    await withHarness(open, async ({ store, compact }) => {
      if (compact === undefined) return t.skip('the harness cannot compact');
      await createPods(store, 5);
      const first = await store.list({ prefix: PODS, limit: 2 });
      assert.ok(first.continue !== undefined);
      await store.update(podKey(padded(4)), pod(padded(4), { v: '2' }));
      await compact();
      await assert.rejects(store.list({ prefix: PODS, limit: 2, continue: first.continue }), RevisionExpiredError);
    });
  });
}
