// The etcd store against a real etcd member: the same contract suite as SQLite, then what only
// etcd has (compaction by etcd, its size limit, an unreachable member, defragmenting).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KeyExistsError, MAX_VALUE_BYTES, RevisionExpiredError, StoreUnavailableError, ValueTooLargeError } from '../errors.js';
import { EventRecorder, pod, podKey, PODS, revisionOf } from '../../../test/support/storage/contract/helpers.js';
import { reopenableHarness, runStoreContract, type StoreHarness } from '../../../test/support/storage/store-contract.js';
import { memberDbSize, worthDefragmenting } from './etcd-defrag.js';
import { openEtcdStore, type EtcdStore, type EtcdStoreOptions } from './etcd-store.js';
import { startEtcd, startEtcdCluster, type EtcdMember } from '../../../test/support/storage/etcd-member.js';
import { waitFor } from '../../../test/support/wait-for.js';

let member: EtcdMember;
let clusters = 0;
/** etcd's progress-notify interval in this file: short, so that quiet watches see them. */
const PROGRESS_MS = 100;
before(async () => {
  member = await startEtcd(['--experimental-watch-progress-notify-interval', `${PROGRESS_MS}ms`]);
});
after(() => member?.cleanup());

/** A key outside PODS: its writes move etcd's revision on without a pod event. */
const otherKey = (name: string) => `/registry/configmaps/default/${name}`;

/** A fresh, empty store: its own key prefix in the shared member. */
async function harness(options: Partial<EtcdStoreOptions> = {}): Promise<StoreHarness & { store: EtcdStore }> {
  const keyPrefix = `/test-${process.pid}-${++clusters}`;
  return reopenableHarness(
    () => openEtcdStore({ endpoints: [member.endpoint], keyPrefix, compactIntervalMs: 0, defrag: false, ...options }),
    (store) => store.compact(),
  );
}

runStoreContract('etcd', () => harness());

describe('etcd store', () => {
  it('a watch from a revision etcd compacted ends with RevisionExpiredError, also when another server compacted', async () => {
    const first = await harness();
    const other = await harness();
    try {
      const { store } = first;
      const a = await store.create(podKey('a'), pod('a'));
      await store.update(podKey('a'), pod('a', { v: '2' }));
      // Compacted through another store: this one learns of it only from etcd.
      await other.store.compact();
      const recorder = new EventRecorder();
      recorder.watch(store, { prefix: PODS, fromRevision: revisionOf(a) - 1 });
      const error = await recorder.waitForError();
      assert.ok(error instanceof RevisionExpiredError, `got ${error.name}: ${error.message}`);
      assert.equal(await store.oldestRevision(), await other.store.oldestRevision());
      // Known now: a second such watch fails at once, as SQLite's does.
      assert.throws(() => store.watch({ prefix: PODS, fromRevision: revisionOf(a) }, () => undefined), RevisionExpiredError);
    } finally {
      await first.cleanup();
      await other.cleanup();
    }
  });

  it('watches share an etcd watcher only where that misses nothing', async () => {
    const { store, cleanup } = await harness();
    try {
      const from = await store.currentRevision();
      const early = new EventRecorder();
      const earlyWatch = early.watch(store, { prefix: PODS, fromRevision: from });
      for (const name of ['a', 'b', 'c']) await store.create(podKey(name), pod(name));
      await early.waitFor(3);
      // From before the writes the first feed has published: a feed of its own, replaying them.
      const replaying = new EventRecorder();
      replaying.watch(store, { prefix: PODS, fromRevision: from });
      // From now: shares the first feed.
      const joining = new EventRecorder();
      joining.watch(store, { prefix: PODS, fromRevision: await store.currentRevision() });
      earlyWatch.stop();
      const d = await store.create(podKey('d'), pod('d'));
      assert.deepEqual(
        (await replaying.waitFor(4)).map((event) => event.key),
        ['a', 'b', 'c', 'd'].map((name) => podKey(name)),
      );
      assert.deepEqual(
        (await joining.waitFor(1)).map((event) => event.revision),
        [revisionOf(d)],
      );
      assert.equal(early.events.length, 3, 'a stopped watch gets nothing more');
    } finally {
      await cleanup();
    }
  });

  it("a watch's bookmark revision (deliveredThrough) never passes an event not yet handed to it, progress notifications included", async () => {
    // A client resumes a watch from its last BOOKMARK's revision. Bookmarks carried etcd's current
    // revision, which runs ahead of the events still on their way to the watch: a watch that
    // ended just after one was resumed past them, and its informer never saw them (issue 15).
    // Writes to another prefix move etcd's revision on between the pods' own, and pauses longer
    // than two progress intervals let etcd's progress notifications reach the feed meanwhile.
    const { store, cleanup } = await harness();
    try {
      const start = await store.currentRevision();
      const delivered = new Set<number>();
      const watch = store.watch({ prefix: PODS, fromRevision: start }, (event) => delivered.add(event.revision));
      const committed: number[] = [];
      let writing = true;
      let samples = 0;
      let currentAhead = 0;
      let pastItsEvents = 0;
      const undeliveredThrough = (revision: number) => committed.filter((r) => r <= revision && !delivered.has(r));
      const sampler = (async () => {
        while (writing) {
          const through = watch.deliveredThrough!();
          assert.deepEqual(undeliveredThrough(through), [], `events at or below ${through} not handed to the watch`);
          if (through > Math.max(start, ...delivered)) pastItsEvents++;
          samples++;
          const current = await store.currentRevision();
          if (undeliveredThrough(current).length > 0) currentAhead++;
        }
      })();
      for (let batch = 0; batch < 8; batch++) {
        const writes = Array.from({ length: 50 }, (_, i) => {
          const name = `burst-${batch}-${i}`;
          return i % 3 === 0 ? store.create(otherKey(name), pod(name)).then(() => undefined) : store.create(podKey(name), pod(name)).then(revisionOf);
        });
        for (const revision of await Promise.all(writes)) if (revision !== undefined) committed.push(revision);
        if (batch % 2 === 1) {
          // The newest write of a pause is another prefix's: only a progress notification can move
          // the watch past its own events then. (Left to chance, a pod was newest at every pause
          // about one run in five, and the check below had nothing to see.)
          await store.create(otherKey(`pause-${batch}`), pod(`pause-${batch}`));
          await new Promise((resolve) => setTimeout(resolve, 4 * PROGRESS_MS));
        }
      }
      await waitFor('every event delivered', () => committed.every((r) => delivered.has(r)), 10_000);
      writing = false;
      await sampler;
      assert.ok(samples > 0);
      assert.ok(watch.deliveredThrough!() >= Math.max(...committed), 'caught up, it reaches the newest write');
      assert.ok(pastItsEvents > 0, "progress notifications moved the revision past the watch's own events");
      // For the record: how often etcd's revision was ahead of the events delivered (the old bookmark).
      console.log(
        `deliveredThrough checked ${samples} times, ${pastItsEvents} past its own events; etcd's current revision was ahead of delivery ${currentAhead} times`,
      );
      watch.stop();
    } finally {
      await cleanup();
    }
  });

  it('a watch of a prefix nobody writes moves its revision on with etcd, so its bookmarks outlive compaction', async () => {
    // Without progress notifications a quiet watch's bookmark stays at its start, a client
    // resuming from it after the next compaction gets 410 and re-lists.
    const { store, cleanup } = await harness();
    try {
      const watch = store.watch({ prefix: PODS, fromRevision: await store.currentRevision() }, () => undefined);
      const elsewhere = revisionOf(await store.create(otherKey('x'), pod('x')));
      await waitFor('the quiet watch to pass a revision written elsewhere', () => watch.deliveredThrough!() >= elsewhere, 5_000);
      // The scheduled compaction's target: the revision seen one interval earlier.
      await store.compact(watch.deliveredThrough!());
      const resumed = new EventRecorder();
      resumed.watch(store, { prefix: PODS, fromRevision: watch.deliveredThrough!() });
      const later = await store.create(podKey('later'), pod('later'));
      assert.deepEqual(
        (await resumed.waitFor(1)).map((event) => event.revision),
        [revisionOf(later)],
      );
      watch.stop();
    } finally {
      await cleanup();
    }
  });

  it('refuses an object over the limit before it reaches etcd', async () => {
    const { store, cleanup } = await harness();
    try {
      const before = await store.currentRevision();
      const big = { ...pod('big'), data: { blob: 'é'.repeat(MAX_VALUE_BYTES / 2 + 1) } };
      await assert.rejects(store.create(podKey('big'), big), (error: unknown) => error instanceof ValueTooLargeError && error.bytes > MAX_VALUE_BYTES);
      assert.equal(await store.currentRevision(), before);
    } finally {
      await cleanup();
    }
  });

  it('the scheduled compaction keeps one interval of history', async () => {
    const { store, cleanup } = await harness({ compactIntervalMs: 300 });
    try {
      const first = await store.create(podKey('a'), pod('a'));
      for (let i = 0; i < 20; i++) await store.update(podKey('a'), pod('a', { i: `${i}` }, { spec: { pad: 'x'.repeat(100_000) } }));
      await waitFor('a compaction within 5 s', async () => (await store.oldestRevision()) > revisionOf(first), 5_000);
      assert.ok((await store.oldestRevision()) <= (await store.currentRevision()));
      assert.throws(() => store.watch({ prefix: PODS, fromRevision: revisionOf(first) }, () => undefined), RevisionExpiredError);
    } finally {
      await cleanup();
    }
  });
});

describe('etcd store, member down', () => {
  it('an unreachable or hung member fails calls with StoreUnavailableError within the request timeout', async () => {
    const own = await startEtcd();
    const store = await openEtcdStore({ endpoints: [own.endpoint], requestTimeoutMs: 1_000, compactIntervalMs: 0, defrag: false });
    try {
      await store.create(podKey('a'), pod('a'));
      const recorder = new EventRecorder();
      recorder.watch(store, { prefix: PODS });
      own.pause();
      let started = Date.now();
      await assert.rejects(store.get(podKey('a')), StoreUnavailableError);
      const hung = Date.now() - started;
      assert.ok(hung < 2_500, `a hung member took ${hung} ms to fail`);
      own.resume();
      assert.equal((await store.get(podKey('a')))?.metadata.name, 'a');
      await own.stop();
      started = Date.now();
      await assert.rejects(store.create(podKey('b'), pod('b')), (error: unknown) => {
        assert.ok(error instanceof StoreUnavailableError, String(error));
        assert.match(error.message, /etcd \(http:\/\/127\.0\.0\.1:\d+\)/);
        return true;
      });
      await assert.rejects(store.list({ prefix: PODS }), StoreUnavailableError);
      assert.ok(Date.now() - started < 5_000, `a stopped member took ${Date.now() - started} ms to fail`);
      const broken = await recorder.waitForError(10_000);
      assert.ok(broken instanceof StoreUnavailableError, `the watch ended with ${broken.name}: ${broken.message}`);
      await own.restart();
      // Until then, reads fail with StoreUnavailableError, which waitFor retries.
      const answer = await waitFor('the restarted member to answer', async () => ({ found: await store.get(podKey('a')) }), 10_000);
      assert.equal(answer.found?.metadata.name, 'a');
    } finally {
      await store.close();
      await own.cleanup();
    }
  });

  it('opening a store on an endpoint where nothing listens fails with StoreUnavailableError', async () => {
    const own = await startEtcd();
    const endpoint = own.endpoint;
    await own.cleanup();
    const started = Date.now();
    await assert.rejects(openEtcdStore({ endpoints: [endpoint], requestTimeoutMs: 1_000 }), StoreUnavailableError);
    assert.ok(Date.now() - started < 3_000);
  });
});

describe('etcd store, defragmenting', () => {
  it('defragments a member whose file a compaction left mostly free', async () => {
    const own = await startEtcd();
    const store = await openEtcdStore({ endpoints: [own.endpoint], compactIntervalMs: 0, defrag: { ratio: 2, minFreeBytes: 1024 * 1024 } });
    try {
      // 8 MB of history behind one small object.
      for (let i = 0; i < 16; i++)
        await store.update(podKey('a'), pod('a', {}, { spec: { pad: `${i}`.repeat(500_000) } })).catch(() => store.create(podKey('a'), pod('a')));
      await store.update(podKey('a'), pod('a'));
      // The size figures follow the backend's commits (every 100 ms; later on a loaded machine).
      const options = { ratio: 2, minFreeBytes: 1024 * 1024 };
      const before = await waitFor(
        'the history in the file',
        async () => {
          const size = await memberDbSize(own.endpoint, 2_000);
          return worthDefragmenting({ total: size.total, inUse: size.total / 10 }, options) ? size : undefined;
        },
        20_000,
      );
      await store.compact();
      // Compacted pages are free once etcd commits a later write (the schedule defragments a round later).
      await store.update(podKey('a'), pod('a', { v: '2' }));
      await waitFor('the compacted pages free', async () => worthDefragmenting(await memberDbSize(own.endpoint, 2_000), options), 20_000);
      assert.deepEqual(await store.defragmentIfWorthIt(), [own.endpoint]);
      const after = await memberDbSize(own.endpoint, 2_000);
      assert.ok(after.total < before.total / 2, `the file stayed ${after.total} bytes (was ${before.total})`);
      assert.deepEqual(await store.defragmentIfWorthIt(), [], 'a defragmented file is left alone');
      assert.equal((await store.get(podKey('a')))?.metadata.name, 'a');
    } finally {
      await store.close();
      await own.cleanup();
    }
  });

  it('leaves a file alone that is mostly in use, or small', () => {
    assert.equal(worthDefragmenting({ total: 200e6, inUse: 150e6 }), false);
    assert.equal(worthDefragmenting({ total: 40e6, inUse: 1e6 }), false);
    assert.equal(worthDefragmenting({ total: 300e6, inUse: 100e6 }), true);
  });
});

describe('etcd store, three members', () => {
  it('keeps serving through the other members when one stops', async () => {
    const members = await startEtcdCluster(3);
    const store = await openEtcdStore({ endpoints: members.map((one) => one.endpoint), requestTimeoutMs: 2_000, compactIntervalMs: 0, defrag: false });
    try {
      await store.create(podKey('a'), pod('a'));
      await members[0]!.stop();
      // Stopping the leader costs an election (about a second): calls may fail as unavailable
      // until then, never any other way, and never for long.
      const stopped = Date.now();
      let written = 0;
      let retrying = false;
      while (written < 20) {
        try {
          await store.create(podKey(`b${written}`), pod(`b${written}`)).catch((error: unknown) => {
            // A create that failed as unavailable may still have committed.
            if (!(retrying && error instanceof KeyExistsError)) throw error;
          });
          assert.equal((await store.get(podKey(`b${written}`)))?.metadata.name, `b${written}`);
          written++;
          retrying = false;
        } catch (error) {
          retrying = true;
          assert.ok(error instanceof StoreUnavailableError, String(error));
          assert.ok(Date.now() - stopped < 5_000, `still failing after 5 s: ${String(error)}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      assert.equal((await store.list({ prefix: PODS })).items.length, 21);
    } finally {
      await store.close();
      await Promise.all(members.map((one) => one.cleanup()));
    }
  });
});
