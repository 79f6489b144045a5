// Contract: watch from now and from a revision, prefixes, ordering, prevObject, stop, and 410.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { RevisionExpiredError } from '../../../../src/storage/errors.js';
import { describeEvent, EventRecorder, type OpenHarness, PODS, pod, podKey, revisionOf, withHarness } from './helpers.js';

export function watchCases(open: OpenHarness): void {
  it('a watch without fromRevision sees only later writes, with prevObject on MODIFIED and DELETED', () =>
    withHarness(open, async ({ store }) => {
      const v1 = await store.create(podKey('a'), pod('a', { v: '1' }));
      const recorder = new EventRecorder();
      recorder.watch(store, { prefix: PODS });
      const v2 = await store.update(podKey('a'), pod('a', { v: '2' }));
      const b = await store.create(podKey('b'), pod('b'));
      const deleted = await store.delete(podKey('a'));
      const [modified, added, removed] = await recorder.waitFor(3);
      assert.equal(recorder.events.length, 3);
      assert.deepEqual(
        [modified?.type, modified?.key, modified?.revision, modified?.object, modified?.prevObject],
        ['MODIFIED', podKey('a'), revisionOf(v2), v2, v1],
      );
      assert.deepEqual([added?.type, added?.key, added?.revision, added?.object], ['ADDED', podKey('b'), revisionOf(b), b]);
      assert.equal(added?.prevObject, undefined);
      assert.deepEqual([removed?.type, removed?.revision, removed?.object], ['DELETED', revisionOf(deleted), deleted]);
      assert.equal(removed?.object.metadata.resourceVersion, String(revisionOf(deleted)));
      assert.deepEqual(removed?.prevObject, v2);
    }));

  it('a watch sees only keys under its prefix', () =>
    withHarness(open, async ({ store }) => {
      const recorder = new EventRecorder();
      recorder.watch(store, { prefix: '/registry/pods/default/' });
      await store.create('/registry/pods/other/a', pod('a'));
      await store.create('/registry/podsx/default/a', pod('a'));
      await store.create('/registry/pods/default/a', pod('a'));
      const events = await recorder.waitFor(1);
      assert.deepEqual(
        events.map((event) => event.key),
        ['/registry/pods/default/a'],
      );
    }));

  it('a watch from a revision replays history, then continues live without gap or duplicate', () =>
    withHarness(open, async ({ store }) => {
      const revisions: number[] = [];
      for (let i = 0; i < 5; i++) revisions.push(revisionOf(await store.create(podKey(`h${i}`), pod(`h${i}`))));
      revisions.push(revisionOf(await store.update(podKey('h0'), pod('h0', { v: '2' }))));
      const from = revisions[1] as number;
      const recorder = new EventRecorder();
      recorder.watch(store, { prefix: PODS, fromRevision: from });
      // Writes racing the watch's start must show up exactly once.
      const live = await Promise.all([0, 1, 2].map((i) => store.create(podKey(`l${i}`), pod(`l${i}`))));
      revisions.push(...live.map(revisionOf));
      const expected = revisions.filter((revision) => revision > from).sort((x, y) => x - y);
      const events = await recorder.waitFor(expected.length);
      assert.deepEqual(
        events.map((event) => event.revision),
        expected,
      );
      assert.deepEqual(events.slice(0, 4).map(describeEvent), [
        `ADDED ${podKey('h2')}@${revisions[2]}`,
        `ADDED ${podKey('h3')}@${revisions[3]}`,
        `ADDED ${podKey('h4')}@${revisions[4]}`,
        `MODIFIED ${podKey('h0')}@${revisions[5]}`,
      ]);
      assert.equal(events[3]?.prevObject?.metadata.resourceVersion, String(revisions[0]));
    }));

  it('a watch from the current revision delivers only later writes', () =>
    withHarness(open, async ({ store }) => {
      await store.create(podKey('a'), pod('a'));
      const recorder = new EventRecorder();
      recorder.watch(store, { prefix: PODS, fromRevision: await store.currentRevision() });
      const b = await store.create(podKey('b'), pod('b'));
      const events = await recorder.waitFor(1);
      assert.deepEqual(events.map(describeEvent), [`ADDED ${podKey('b')}@${revisionOf(b)}`]);
    }));

  it('every watcher gets every event in revision order under concurrent writers', () =>
    withHarness(open, async ({ store }) => {
      const recorders = [new EventRecorder(), new EventRecorder(), new EventRecorder()];
      for (const recorder of recorders) recorder.watch(store, { prefix: PODS });
      const writes = await Promise.all(
        Array.from({ length: 30 }, async (_, i) => {
          const created = await store.create(podKey(`c${i}`), pod(`c${i}`));
          const updated = await store.update(podKey(`c${i}`), pod(`c${i}`, { v: '2' }));
          return [revisionOf(created), revisionOf(updated)];
        }),
      );
      const expected = writes.flat().sort((x, y) => x - y);
      for (const recorder of recorders) {
        const events = await recorder.waitFor(expected.length);
        assert.deepEqual(
          events.map((event) => event.revision),
          expected,
        );
      }
    }));

  it('stop() ends delivery to that watcher only', () =>
    withHarness(open, async ({ store }) => {
      const stopped = new EventRecorder();
      const other = new EventRecorder();
      const watch = stopped.watch(store, { prefix: PODS });
      other.watch(store, { prefix: PODS });
      await store.create(podKey('a'), pod('a'));
      await stopped.waitFor(1);
      watch.stop();
      watch.stop();
      await store.create(podKey('b'), pod('b'));
      await other.waitFor(2);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(stopped.events.length, 1);
    }));

  it('oldestRevision() can always be watched from', () =>
    withHarness(open, async ({ store }) => {
      await store.create(podKey('a'), pod('a'));
      const oldest = await store.oldestRevision();
      assert.ok(oldest <= (await store.currentRevision()));
      const recorder = new EventRecorder();
      recorder.watch(store, { prefix: PODS, fromRevision: oldest }).stop();
    }));

  it('a watch from a compacted revision throws RevisionExpiredError', async (t) => {
    await withHarness(open, async ({ store, compact }) => {
      if (compact === undefined) return t.skip('the harness cannot compact');
      const first = await store.create(podKey('a'), pod('a'));
      for (let i = 0; i < 4; i++) await store.update(podKey('a'), pod('a', { v: `${i}` }));
      await compact();
      const oldest = await store.oldestRevision();
      assert.equal(oldest, await store.currentRevision(), 'compact() discards all history');
      const expired = () => store.watch({ prefix: PODS, fromRevision: revisionOf(first) }, () => undefined);
      assert.throws(expired, RevisionExpiredError);
      const recorder = new EventRecorder();
      recorder.watch(store, { prefix: PODS, fromRevision: oldest });
      const next = await store.update(podKey('a'), pod('a', { v: 'after' }));
      const events = await recorder.waitFor(1);
      assert.deepEqual(
        events.map((event) => event.revision),
        [revisionOf(next)],
      );
    });
  });
}
