// Contract: get / create / update / delete, preconditions, and the cluster-wide revision.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KeyExistsError, KeyNotFoundError, MAX_VALUE_BYTES, RevisionConflictError, ValueTooLargeError } from '../../../../src/storage/errors.js';
import { storedJson } from '../../../../src/storage/stored-json.js';
import { type OpenHarness, pod, podKey, revisionOf, withHarness } from './helpers.js';

export function crudCases(open: OpenHarness): void {
  it('create stamps the next revision as resourceVersion, and get returns the stored object', () =>
    withHarness(open, async ({ store }) => {
      const before = await store.currentRevision();
      const input = pod('a', { app: 'web' });
      const created = await store.create(podKey('a'), input);
      const revision = revisionOf(created);
      assert.ok(revision > before);
      assert.equal(await store.currentRevision(), revision);
      assert.equal(created.metadata.resourceVersion, String(revision));
      assert.equal(input.metadata.resourceVersion, undefined, 'create must not modify its argument');
      assert.deepEqual(await store.get(podKey('a')), created);
      assert.deepEqual((await store.get(podKey('a')))?.spec, input.spec);
    }));

  it('refuses an object over MAX_VALUE_BYTES on create and update, and keeps the old one', () =>
    withHarness(open, async ({ store }) => {
      const big = (name: string) => ({ ...pod(name), data: { blob: 'x'.repeat(MAX_VALUE_BYTES) } });
      await assert.rejects(store.create(podKey('big'), big('big')), ValueTooLargeError);
      assert.equal(await store.get(podKey('big')), undefined);
      const small = await store.create(podKey('small'), pod('small'));
      await assert.rejects(store.update(podKey('small'), big('small'), { expectedRevision: revisionOf(small) }), ValueTooLargeError);
      assert.deepEqual(await store.get(podKey('small')), small);
    }));

  it('get of a missing key returns undefined', () =>
    withHarness(open, async ({ store }) => {
      assert.equal(await store.get(podKey('nope')), undefined);
    }));

  it('getRaw, where offered, returns the stored object as UTF-8 JSON, or undefined', async (t) => {
    await withHarness(open, async ({ store }) => {
      if (store.getRaw === undefined) return t.skip('the store has no getRaw');
      const created = await store.create(podKey('a'), pod('a', { app: 'wéb' }));
      const bytes = await store.getRaw(podKey('a'));
      assert.ok(bytes !== undefined);
      assert.deepEqual(JSON.parse(Buffer.from(bytes).toString('utf8')), created);
      assert.equal(await store.getRaw(podKey('nope')), undefined);
    });
  });

  it('the JSON a write records for its result is that result, where recorded', () =>
    withHarness(open, async ({ store }) => {
      const created = await store.create(podKey('a'), pod('a'));
      const updated = await store.update(podKey('a'), pod('a', { v: '2' }));
      for (const object of [created, updated]) {
        const json = storedJson(object);
        if (json !== undefined) assert.deepEqual(JSON.parse(json), object);
      }
    }));

  it('get returns a fresh copy each time, independent of the caller objects', () =>
    withHarness(open, async ({ store }) => {
      const input = pod('a', { app: 'web' });
      await store.create(podKey('a'), input);
      (input.metadata.labels as Record<string, string>).app = 'changed-after-create';
      const first = await store.get(podKey('a'));
      assert.ok(first?.metadata.labels);
      first.metadata.labels.app = 'changed-by-reader';
      const second = await store.get(podKey('a'));
      assert.equal(second?.metadata.labels?.app, 'web');
    }));

  it('create of an existing key throws KeyExistsError and consumes no revision', () =>
    withHarness(open, async ({ store }) => {
      const created = await store.create(podKey('a'), pod('a', { v: '1' }));
      await assert.rejects(store.create(podKey('a'), pod('a', { v: '2' })), KeyExistsError);
      assert.equal(await store.currentRevision(), revisionOf(created));
      assert.deepEqual(await store.get(podKey('a')), created);
    }));

  it('every write, on any key, gets a strictly greater revision', () =>
    withHarness(open, async ({ store }) => {
      const revisions: number[] = [];
      for (const name of ['c', 'a', 'b']) revisions.push(revisionOf(await store.create(podKey(name), pod(name))));
      revisions.push(revisionOf(await store.update(podKey('a'), pod('a', { v: '2' }))));
      revisions.push(revisionOf(await store.delete(podKey('c'))));
      revisions.push(revisionOf(await store.create(podKey('c'), pod('c'))));
      for (let i = 1; i < revisions.length; i++) assert.ok((revisions[i] as number) > (revisions[i - 1] as number));
      assert.equal(await store.currentRevision(), revisions[revisions.length - 1]);
      assert.ok((await store.oldestRevision()) <= (await store.currentRevision()));
    }));

  it('update replaces the object at a new revision; a missing key throws KeyNotFoundError', () =>
    withHarness(open, async ({ store }) => {
      const created = await store.create(podKey('a'), pod('a', { v: '1' }));
      const updated = await store.update(podKey('a'), pod('a', { v: '2' }));
      assert.ok(revisionOf(updated) > revisionOf(created));
      assert.deepEqual(await store.get(podKey('a')), updated);
      assert.equal(updated.metadata.labels?.v, '2');
      await assert.rejects(store.update(podKey('missing'), pod('missing')), KeyNotFoundError);
      assert.equal(await store.currentRevision(), revisionOf(updated));
    }));

  it('update with expectedRevision succeeds only on the current revision', () =>
    withHarness(open, async ({ store }) => {
      const v1 = await store.create(podKey('a'), pod('a', { v: '1' }));
      const v2 = await store.update(podKey('a'), pod('a', { v: '2' }), { expectedRevision: revisionOf(v1) });
      const stale = store.update(podKey('a'), pod('a', { v: '3' }), { expectedRevision: revisionOf(v1) });
      await assert.rejects(stale, (error: unknown) => {
        assert.ok(error instanceof RevisionConflictError);
        assert.equal(error.expected, revisionOf(v1));
        assert.equal(error.actual, revisionOf(v2));
        return true;
      });
      assert.equal(await store.currentRevision(), revisionOf(v2));
      assert.deepEqual(await store.get(podKey('a')), v2);
    }));

  it('concurrent writers: one create per key and one update per expected revision win', () =>
    withHarness(open, async ({ store }) => {
      const eight = (write: (i: number) => Promise<unknown>) => Promise.allSettled(Array.from({ length: 8 }, (_, i) => write(i)));
      const creates = await eight((i) => store.create(podKey('a'), pod('a', { i: `${i}` })));
      assert.equal(creates.filter((result) => result.status === 'fulfilled').length, 1);
      for (const result of creates) {
        if (result.status === 'rejected') assert.ok(result.reason instanceof KeyExistsError);
      }
      const expectedRevision = revisionOf(await store.get(podKey('a')));
      const updates = await eight((i) => store.update(podKey('a'), pod('a', { u: `${i}` }), { expectedRevision }));
      assert.equal(updates.filter((result) => result.status === 'fulfilled').length, 1);
      for (const result of updates) {
        if (result.status === 'rejected') assert.ok(result.reason instanceof RevisionConflictError);
      }
    }));

  it('delete returns the last state at the delete revision, and the key can be created again', () =>
    withHarness(open, async ({ store }) => {
      await store.create(podKey('a'), pod('a', { v: '1' }));
      const last = await store.update(podKey('a'), pod('a', { v: '2' }));
      const deleted = await store.delete(podKey('a'));
      assert.ok(revisionOf(deleted) > revisionOf(last));
      assert.equal(await store.currentRevision(), revisionOf(deleted));
      const lastAtDelete = { ...last, metadata: { ...last.metadata, resourceVersion: String(revisionOf(deleted)) } };
      assert.deepEqual(deleted, lastAtDelete);
      assert.equal(await store.get(podKey('a')), undefined);
      const again = await store.create(podKey('a'), pod('a', { v: 'again' }));
      assert.ok(revisionOf(again) > revisionOf(deleted));
    }));

  it('delete of a missing key or with a stale expectedRevision fails and keeps the object', () =>
    withHarness(open, async ({ store }) => {
      await assert.rejects(store.delete(podKey('missing')), KeyNotFoundError);
      const v1 = await store.create(podKey('a'), pod('a', { v: '1' }));
      const v2 = await store.update(podKey('a'), pod('a', { v: '2' }));
      await assert.rejects(store.delete(podKey('a'), { expectedRevision: revisionOf(v1) }), RevisionConflictError);
      assert.deepEqual(await store.get(podKey('a')), v2);
      assert.equal(await store.currentRevision(), revisionOf(v2));
      const deleted = await store.delete(podKey('a'), { expectedRevision: revisionOf(v2) });
      assert.equal(deleted.metadata.labels?.v, '2');
    }));
}
