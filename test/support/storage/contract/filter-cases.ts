// Contract: a filtered watch sees objects enter and leave its filter as ADDED and DELETED, the
// way the Kubernetes watch cache presents a label-selector watch.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { KubeObject } from '../../../../src/api/meta.js';
import type { Store, StoreEvent } from '../../../../src/storage/store.js';
import { EventRecorder, type OpenHarness, PODS, pod, podKey, revisionOf, withHarness } from './helpers.js';

const isWeb = (object: KubeObject): boolean => object.metadata.labels?.app === 'web';

interface Expected {
  type: StoreEvent['type'];
  key: string;
  revision: number;
  /** The `v` label of the event's object. */
  v: string;
}

/** Writes a label history for two keys and returns what a watcher filtered on app=web must see. */
async function writeTransitions(store: Store): Promise<Expected[]> {
  const a = podKey('a');
  const b = podKey('b');
  const expected: Expected[] = [];
  const write = async (result: Promise<KubeObject>, seen?: Omit<Expected, 'revision'>) => {
    const revision = revisionOf(await result);
    if (seen !== undefined) expected.push({ ...seen, revision });
  };
  await write(store.create(a, pod('a', { app: 'db', v: '1' })));
  await write(store.update(a, pod('a', { app: 'web', v: '2' })), { type: 'ADDED', key: a, v: '2' });
  await write(store.update(a, pod('a', { app: 'web', v: '3' })), { type: 'MODIFIED', key: a, v: '3' });
  // Leaving the filter: DELETED, carrying the last matching state at this write's revision.
  await write(store.update(a, pod('a', { app: 'db', v: '4' })), { type: 'DELETED', key: a, v: '3' });
  await write(store.update(a, pod('a', { app: 'cache', v: '5' })));
  await write(store.create(b, pod('b', { app: 'web', v: '1' })), { type: 'ADDED', key: b, v: '1' });
  await write(store.delete(a));
  await write(store.delete(b), { type: 'DELETED', key: b, v: '1' });
  // The sentinel: nothing may arrive between the writes above and this one.
  await write(store.create(podKey('z'), pod('z', { app: 'web', v: 'end' })), { type: 'ADDED', key: podKey('z'), v: 'end' });
  return expected;
}

function assertTransitions(events: StoreEvent[], expected: Expected[]): void {
  const seen = events.map((event) => ({
    type: event.type,
    key: event.key,
    revision: event.revision,
    v: event.object.metadata.labels?.v ?? '',
  }));
  assert.deepEqual(seen, expected);
  for (const event of events) {
    assert.equal(event.object.metadata.resourceVersion, String(event.revision));
    assert.ok(isWeb(event.object), 'every delivered object matches the filter');
    if (event.type === 'DELETED' && event.key === podKey('a')) {
      assert.equal(event.prevObject?.metadata.labels?.v, '3', 'prevObject is the last matching state');
    }
  }
}

export function filterCases(open: OpenHarness): void {
  it('a filtered watch sees objects entering as ADDED and leaving as DELETED', () =>
    withHarness(open, async ({ store }) => {
      const recorder = new EventRecorder();
      recorder.watch(store, { prefix: PODS, filter: isWeb });
      const expected = await writeTransitions(store);
      assertTransitions(await recorder.waitFor(expected.length), expected);
    }));

  it('replayed history gets the same filter transitions as live events', () =>
    withHarness(open, async ({ store }) => {
      const from = await store.currentRevision();
      const expected = await writeTransitions(store);
      const recorder = new EventRecorder();
      recorder.watch(store, { prefix: PODS, fromRevision: from, filter: isWeb });
      assertTransitions(await recorder.waitFor(expected.length), expected);
    }));

  it('an unfiltered watcher next to a filtered one still sees every event unchanged', () =>
    withHarness(open, async ({ store }) => {
      const all = new EventRecorder();
      const web = new EventRecorder();
      all.watch(store, { prefix: PODS });
      web.watch(store, { prefix: PODS, filter: isWeb });
      await store.create(podKey('a'), pod('a', { app: 'web' }));
      await store.update(podKey('a'), pod('a', { app: 'db' }));
      const events = await all.waitFor(2);
      assert.deepEqual(
        events.map((event) => event.type),
        ['ADDED', 'MODIFIED'],
      );
      assert.equal(events[1]?.object.metadata.labels?.app, 'db');
      assert.deepEqual(
        (await web.waitFor(2)).map((event) => event.type),
        ['ADDED', 'DELETED'],
      );
    }));
}
