// Contract: what survives closing the store and opening the same data again.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { EventRecorder, type OpenHarness, PODS, pod, podKey, revisionOf, withHarness } from './helpers.js';

export function restartCases(open: OpenHarness): void {
  it('objects, the revision and watch history survive a reopen', async (t) => {
    await withHarness(open, async ({ store, reopen }) => {
      if (reopen === undefined) return t.skip('the harness cannot reopen');
      const a1 = await store.create(podKey('a'), pod('a', { v: '1' }));
      const b = await store.create(podKey('b'), pod('b'));
      const a2 = await store.update(podKey('a'), pod('a', { v: '2' }));
      const bGone = await store.delete(podKey('b'));
      const revision = await store.currentRevision();
      await store.close();

      const reopened = await reopen();
      assert.equal(await reopened.currentRevision(), revision);
      assert.deepEqual(await reopened.get(podKey('a')), a2);
      assert.equal(await reopened.get(podKey('b')), undefined);
      assert.deepEqual((await reopened.list({ prefix: PODS })).items, [a2]);

      const recorder = new EventRecorder();
      recorder.watch(reopened, { prefix: PODS, fromRevision: revisionOf(a1) });
      const c = await reopened.create(podKey('c'), pod('c'));
      assert.ok(revisionOf(c) > revision, 'revisions continue after a reopen');
      const events = await recorder.waitFor(4);
      assert.deepEqual(
        events.map((event) => [event.type, event.revision]),
        [
          ['ADDED', revisionOf(b)],
          ['MODIFIED', revisionOf(a2)],
          ['DELETED', revisionOf(bGone)],
          ['ADDED', revisionOf(c)],
        ],
      );
      assert.equal(events[0]?.key, podKey('b'));
      assert.deepEqual(events[1]?.prevObject, a1);
    });
  });

  it('close() is idempotent and later calls are rejected', () =>
    withHarness(open, async ({ store }) => {
      await store.close();
      await store.close();
      await assert.rejects(store.get(podKey('a')));
      await assert.rejects(store.create(podKey('a'), pod('a')));
    }));
}
