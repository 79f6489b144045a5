import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiClient, silentLogger } from '../../client/index.js';
import { useTestServer } from '../../../test/support/apiserver/use-test-server.js';
import { startSlowLink } from '../../../test/support/slow-link.js';
import { ShardCoordinator, shardOf } from './shard-coordinator.js';
import { waitFor } from '../../../test/support/wait-for.js';

const SHARDS = 8;
const keys = Array.from({ length: 200 }, (_, i) => `ns-${i % 7}/pod-${i}`);

describe('ShardCoordinator (controller farm)', () => {
  const bed = useTestServer();

  const member = (identity: string, leaseDurationSeconds = 15) =>
    new ShardCoordinator({
      api: bed.api,
      identity,
      shards: SHARDS,
      retryPeriodMs: 50,
      leaseDurationSeconds,
      renewDeadlineMs: Math.min(10_000, leaseDurationSeconds * 700),
      logger: silentLogger,
    });

  /** Every key has exactly one owner among the members. */
  function partitioned(members: ShardCoordinator[]): boolean {
    return keys.every((key) => members.filter((m) => m.owns(key)).length === 1);
  }

  it('hashes keys into shards the same way every time', () => {
    assert.equal(shardOf('default/web', SHARDS), shardOf('default/web', SHARDS));
    const spread = new Set(keys.map((key) => shardOf(key, SHARDS)));
    assert.equal(spread.size, SHARDS);
  });

  it('splits the shards between members, and a member that leaves hands its shards over', async () => {
    const a = member('member-a');
    await a.start();
    assert.equal(a.heldShards().length, SHARDS, 'alone, a member holds every shard');
    let acquiredByB = 0;
    const b = member('member-b');
    b.onAcquire(() => acquiredByB++);
    await b.start();
    await waitFor('an even split', () => a.heldShards().length === SHARDS / 2 && b.heldShards().length === SHARDS / 2, 5000);
    assert.ok(partitioned([a, b]), 'every key is owned by exactly one member');
    assert.ok(acquiredByB > 0, 'the joining member was told it acquired shards');
    await b.stop();
    await waitFor('a takes everything back', () => a.heldShards().length === SHARDS, 5000);
    assert.ok(partitioned([a]));
    await a.stop();
  });

  it('tells its controllers again when it renews shards after their deadline passed (keys were dropped meanwhile)', async () => {
    // A busy server: rounds come slower than the renew deadline, so the shards lapse between them.
    const slow = new ShardCoordinator({
      api: bed.api,
      identity: 'slow',
      shards: SHARDS,
      retryPeriodMs: 300,
      leaseDurationSeconds: 2,
      renewDeadlineMs: 100,
      logger: silentLogger,
    });
    let told = 0;
    slow.onAcquire(() => told++);
    await slow.start();
    try {
      assert.equal(told, 1, 'told once for the first acquisition');
      await waitFor('the deadline passes', () => !keys.some((key) => slow.owns(key)), 2000);
      await waitFor('renewed, and told again', () => told >= 2 && keys.every((key) => slow.owns(key)), 2000);
      assert.equal(slow.heldShards().length, SHARDS, 'the shards stayed with it');
    } finally {
      await slow.stop();
    }
  });

  it('keeps its shards on a slow server whose every request still answers well within the renew deadline', async () => {
    // Each request takes 500 ms more; the deadline is 2 s. A round that sent the member heartbeat
    // (read, write), the member count and a read before each renewal renewed every 2.7 s, so
    // the shards lapsed every round and the controllers owned their keys a third of the time
    // (issue 15: the ReplicaSets of an overloaded server on etcd stopped creating pods).
    const link = await startSlowLink(bed.server.url, 500);
    const slowApi = new ApiClient({ server: link.url, namespace: 'default', tls: bed.server.adminTls }, { userAgent: 'farm-slow-link-test' });
    const patient = new ShardCoordinator({
      api: slowApi,
      identity: 'patient',
      shards: SHARDS,
      retryPeriodMs: 200,
      leaseDurationSeconds: 3,
      renewDeadlineMs: 2000,
      logger: silentLogger,
    });
    await patient.start();
    try {
      let samples = 0;
      let owned = 0;
      for (const until = performance.now() + 8000; performance.now() < until; samples++) {
        if (keys.every((key) => patient.owns(key))) owned++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.ok(owned / samples >= 0.8, `owned every key in ${owned} of ${samples} samples`);
    } finally {
      await patient.stop();
      slowApi.close();
      await link.close();
    }
  });

  it('takes over the shards of a member that died once their leases expire', async () => {
    const survivor = member('survivor', 1);
    const doomed = member('doomed', 1);
    await doomed.start();
    await survivor.start();
    await waitFor('an even split', () => survivor.heldShards().length === SHARDS / 2, 5000);
    // A crash: the doomed member stops renewing without giving anything back.
    (doomed as unknown as { stopped: boolean }).stopped = true;
    await waitFor('the dead member stops owning keys (renew deadline)', () => !keys.some((key) => doomed.owns(key)), 5000);
    await waitFor('the survivor takes over', () => survivor.heldShards().length === SHARDS, 10_000);
    assert.ok(partitioned([survivor]));
    await survivor.stop();
  });
});
