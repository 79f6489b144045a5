// The pod workers (manager.ts) against a runtime held in memory and a real API server: one sync
// of a pod at a time, syncs heard meanwhile run after it as one, deleted pods ended off the
// workers (begun ENDINGS_BURST at once, then ENDINGS_PER_SECOND, none waiting for another to
// end), and a failed ending retried with back-off. The test
// steers the runtime: it holds a pod's first read (a sync in progress), or a container's stop
// (a process that ignores SIGTERM for its grace period), or fails the stop.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { podSpec, waitForPod, waitForPodGone } from '../../../test/support/agent/agent-cluster.js';
import { startFakeNodeBed, type FakeNodeBed } from '../../../test/support/agent/fake-node.js';
import { FakeRuntime } from '../../../test/support/agent/fake-runtime.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { silentLogger } from '../../client/index.js';
import { KernelLog } from '../node/kernel-log.js';
import { POD_UID } from '../runtime/labels.js';
import type { ListFilter, SandboxInfo } from '../runtime/runtime.js';
import { ENDINGS_BURST, ENDINGS_PER_SECOND, PodManager } from './manager.js';
import type { Pod } from '../../api/core/index.js';

/** Calls held until the test lets them go, or fails them. */
class Gate {
  /** The pod uid of every call held so far, in order. */
  readonly entered: string[] = [];
  private readonly waiting: Array<{ uid: string; go: (error?: Error) => void }> = [];

  hold(uid: string): Promise<void> {
    this.entered.push(uid);
    return new Promise((resolve, reject) => this.waiting.push({ uid, go: (error) => (error ? reject(error) : resolve()) }));
  }

  /** The pod uids of the calls waiting now. */
  get held(): string[] {
    return this.waiting.map((w) => w.uid);
  }

  release(count = Infinity, error?: Error): void {
    for (const w of this.waiting.splice(0, count)) w.go(error);
  }
}

type Hook = (uid: string) => Promise<void> | void;

class SteeredRuntime extends FakeRuntime {
  /** Runs as a pod's sandboxes are listed: the first read of every sync, and of every ending. */
  onList: Hook = () => undefined;
  /** Runs as a pod's container is asked to stop. */
  onStop: Hook = () => undefined;
  /** Lists of each pod's sandboxes begun, by uid. */
  readonly lists = new Map<string, number>();

  override async listSandboxes(filter?: ListFilter): Promise<SandboxInfo[]> {
    const uid = filter?.labels?.[POD_UID];
    if (typeof uid === 'string') {
      this.lists.set(uid, (this.lists.get(uid) ?? 0) + 1);
      await this.onList(uid);
    }
    return super.listSandboxes(filter);
  }

  override async stopContainer(id: string): Promise<void> {
    const uid = this.containers.find((c) => c.id === id)?.labels[POD_UID];
    if (uid) await this.onStop(uid);
    return super.stopContainer(id);
  }
}

describe('pod workers against a fake runtime', () => {
  let bed: FakeNodeBed;
  let nodes = 0;
  const running: Array<{ runtime: SteeredRuntime; gates: Gate[]; manager: PodManager }> = [];

  before(async () => {
    bed = await startFakeNodeBed('workers-unit');
  });

  after(async () => {
    // Held calls go first: stopping waits for the syncs and endings in progress.
    for (const { runtime, gates, manager } of running) {
      runtime.onList = runtime.onStop = () => undefined;
      for (const gate of gates) gate.release();
      await manager.stop();
    }
    await bed.close();
  });

  /** A node of its own (no other test's pods) with its pod workers started. */
  async function node(workers?: number) {
    const runtime = new SteeredRuntime();
    const nodeName = `${bed.cluster.nodeName}-${++nodes}`;
    const kernelLog = new KernelLog(join(bed.dataDir, 'no-kernel-log'));
    const manager = new PodManager({
      deps: bed.deps(runtime, nodeName),
      api: bed.cluster.api,
      logger: silentLogger,
      kernelLog,
      housekeepingMs: 60_000,
      workers,
    });
    const gates = [new Gate(), new Gate()];
    running.push({ runtime, gates, manager });
    await manager.start();
    const pods = bed.cluster.pods;
    return {
      runtime,
      manager,
      syncs: gates[0]!,
      stops: gates[1]!,
      /** A pod on this node, Running and no longer being synced. */
      async runningPod(name: string): Promise<Pod> {
        const pod = await pods.create(podSpec(name, nodeName, [{ name: 'app' }]));
        await waitForPod(bed.cluster, name, 'Running', (p) => p.status?.phase === 'Running', 5000);
        const uid = pod.metadata.uid!;
        let last = -1;
        await waitFor(`${name} no longer synced`, async () => {
          const lists = runtime.lists.get(uid) ?? 0;
          if (lists === last) return true;
          last = lists;
          await sleep(100);
          return false;
        });
        return pod;
      },
      /** Changes the pod's labels, and waits until the workers heard of it. */
      async touch(name: string, value: string): Promise<void> {
        const patched = await pods.patch(name, 'merge', { metadata: { labels: { touched: value } } });
        const uid = patched.metadata.uid!;
        await waitFor(`${name} ${value} heard`, () => manager.podByUid(uid)?.metadata.resourceVersion === patched.metadata.resourceVersion);
      },
      /** A running pod whose sync is held in progress while three more changes of it are heard; its uid. */
      async changedWhileSyncing(name: string): Promise<string> {
        const uid = (await this.runningPod(name)).metadata.uid!;
        runtime.onList = (u) => (u === uid ? this.syncs.hold(u) : undefined);
        await this.touch(name, '1');
        await waitFor('a sync in progress', () => this.syncs.held.length === 1);
        for (const value of ['2', '3', '4']) await this.touch(name, value);
        return uid;
      },
    };
  }

  test('a pod is synced on one worker at a time', async () => {
    const n = await node();
    const uid = await n.changedWhileSyncing('one-at-a-time');
    await sleep(100);
    assert.deepEqual(n.syncs.entered, [uid], 'no second sync began while the first ran');
    n.runtime.onList = () => undefined;
    n.syncs.release();
  });

  test('what is heard while a sync runs is synced after it, once', async () => {
    const n = await node();
    await n.changedWhileSyncing('coalesced');
    n.syncs.release();
    await waitFor('the sync heard meanwhile', () => n.syncs.entered.length === 2);
    n.syncs.release();
    await sleep(300);
    assert.equal(n.syncs.entered.length, 2, 'three changes heard during one sync make one more sync');
  });

  test('a deleted pod is ended off the workers: a new pod starts while it ends through its grace period', async () => {
    const n = await node(1);
    const leaving = await n.runningPod('leaving');
    n.runtime.onStop = (u) => (u === leaving.metadata.uid ? n.stops.hold(u) : undefined);
    await bed.cluster.pods.delete('leaving');
    await waitFor('leaving is stopping', () => n.stops.held.length === 1);
    await bed.cluster.pods.create(podSpec('arriving', leaving.spec.nodeName!, [{ name: 'app' }]));
    await waitForPod(bed.cluster, 'arriving', 'Running on the one worker', (p) => p.status?.phase === 'Running', 5000);
    assert.deepEqual(n.stops.held, [leaving.metadata.uid], 'leaving is still within its grace period');
    n.stops.release();
    await waitForPodGone(bed.cluster, 'leaving', 3000);
  });

  test(`endings begin ${ENDINGS_BURST} at once, then ${ENDINGS_PER_SECOND} a second, none waiting for another to end`, async () => {
    const n = await node();
    const later = 8;
    const names = Array.from({ length: ENDINGS_BURST + later }, (_, i) => `many-${i}`);
    await Promise.all(names.map((name) => n.runningPod(name)));
    // Every stop is held, as by processes that wait out their grace period.
    const began: number[] = [];
    n.runtime.onStop = (u) => {
      began.push(Date.now());
      return n.stops.hold(u);
    };
    await Promise.all(names.map((name) => bed.cluster.pods.delete(name)));
    await waitFor('every pod asked to stop while none has stopped', () => n.stops.held.length === names.length, 5000);
    began.sort((a, b) => a - b);
    const spread = began[began.length - 1]! - began[0]!;
    const paced = ((later - 1) / ENDINGS_PER_SECOND) * 1000;
    assert.ok(spread >= paced, `the ${later} past the burst are paced: the last began ${spread} ms after the first, at least ${paced} expected`);
    n.runtime.onStop = () => undefined;
    n.stops.release();
    await Promise.all(names.map((name) => waitForPodGone(bed.cluster, name, 5000)));
  });

  test('a failed ending is retried with a doubling back-off, even when the pod was heard of meanwhile', async () => {
    const n = await node();
    const uid = (await n.runningPod('stubborn')).metadata.uid!;
    const attempts: number[] = [];
    n.runtime.onStop = (u) => {
      if (u !== uid) return;
      attempts.push(Date.now());
      if (attempts.length === 1) return n.stops.hold(u);
      if (attempts.length === 2) throw new Error('the engine refused to stop it');
    };
    await bed.cluster.pods.delete('stubborn');
    await waitFor('the first ending', () => n.stops.held.length === 1);
    await n.touch('stubborn', 'while-ending');
    await sleep(50);
    const failedAt = Date.now();
    n.stops.release(1, new Error('the engine refused to stop it'));
    await waitForPodGone(bed.cluster, 'stubborn', 5000);
    assert.equal(attempts.length, 3);
    const [, second, third] = attempts as [number, number, number];
    assert.ok(second - failedAt >= 490, `the first retry waited ${second - failedAt} ms, not 500`);
    assert.ok(third - second >= 990, `the second retry waited ${third - second} ms, not 1000`);
  });
});
