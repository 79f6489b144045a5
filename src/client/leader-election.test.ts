import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LeaderElector, type LeaderElectorOptions } from './leader-elector.js';
import { LeaseLock, type Lease } from './lease-lock.js';
import { silentLogger } from './logger.js';
import { resources } from './resources.js';
import { useTestServer } from '../../test/support/apiserver/use-test-server.js';
import { waitFor } from '../../test/support/wait-for.js';

const bed = useTestServer();

describe('LeaseLock', () => {
  it('lets exactly one of two racing contenders take a free lease', async () => {
    const a = new LeaseLock(bed.api);
    const b = new LeaseLock(bed.server.client());
    for (const name of ['race-new', 'race-released']) {
      if (name === 'race-released') {
        await a.tryAcquireOrRenew(name, 'default', 'setup', 10);
        assert.ok(await a.release(name, 'default', 'setup'));
      }
      const results = await Promise.all([a.tryAcquireOrRenew(name, 'default', 'a', 10), b.tryAcquireOrRenew(name, 'default', 'b', 10)]);
      assert.equal(results.filter((r) => r.held).length, 1, `${name}: ${JSON.stringify(results.map((r) => r.held))}`);
    }
  });

  it('renews for the holder, refuses others until expiry, and holds many leases at once', async () => {
    const lock = new LeaseLock(bed.api);
    const other = new LeaseLock(bed.api);
    for (let shard = 0; shard < 4; shard++) assert.ok((await lock.tryAcquireOrRenew(`shard-${shard}`, 'default', 'me', 30)).held);
    const renewed = await lock.tryAcquireOrRenew('shard-0', 'default', 'me', 30);
    assert.ok(renewed.held && !renewed.transitioned);
    const refused = await other.tryAcquireOrRenew('shard-0', 'default', 'you', 30);
    assert.deepEqual([refused.held, refused.holder], [false, 'me']);
    assert.equal(await other.release('shard-0', 'default', 'you'), false, 'only the holder releases');
    const lease = await bed.api.resource(resources.leases, 'default').get('shard-3');
    assert.match(String((lease['spec'] as { renewTime: string }).renewTime), /\.\d{6}Z$/);
  });

  it('renews over the record it wrote last, and reads the lease again once anyone else wrote it', async () => {
    const lock = new LeaseLock(bed.api);
    assert.ok((await lock.tryAcquireOrRenew('fast', 'default', 'me', 30)).held);
    const renewed = await lock.tryAcquireOrRenew('fast', 'default', 'me', 30);
    assert.ok(renewed.held && !renewed.transitioned);
    // Someone takes the lease by hand (as a successor would once it expired): the renewal's
    // compare-and-swap must fail, and the read that follows shows the new holder.
    const leases = bed.api.resource<Lease>(resources.leases, 'default');
    const current = await leases.get('fast');
    await leases.update({ ...current, spec: { ...current.spec, holderIdentity: 'usurper', renewTime: new Date().toISOString().replace('Z', '000Z') } });
    const refused = await lock.tryAcquireOrRenew('fast', 'default', 'me', 30);
    assert.deepEqual([refused.held, refused.holder], [false, 'usurper']);
    assert.equal((await leases.get('fast')).spec?.holderIdentity, 'usurper', 'the usurper kept it');
  });

  it('takes over a lease whose holder stopped renewing', async () => {
    let now = 0;
    const clock = { now: () => now, wallTime: () => new Date() };
    await new LeaseLock(bed.api).tryAcquireOrRenew('stale', 'default', 'old', 5);
    const taker = new LeaseLock(bed.api, clock);
    assert.equal((await taker.tryAcquireOrRenew('stale', 'default', 'new', 5)).held, false);
    now = 4000;
    assert.equal((await taker.tryAcquireOrRenew('stale', 'default', 'new', 5)).held, false);
    now = 5001;
    const taken = await taker.tryAcquireOrRenew('stale', 'default', 'new', 5);
    assert.ok(taken.held && taken.transitioned);
    assert.equal(taken.lease?.spec?.leaseTransitions, 1);
  });
});

describe('LeaderElector', () => {
  function elector(identity: string, log: string[], extra: Partial<LeaderElectorOptions> = {}): LeaderElector {
    return new LeaderElector({
      lock: new LeaseLock(bed.api),
      name: 'controller-manager',
      namespace: 'default',
      identity,
      leaseDurationMs: 1000,
      renewDeadlineMs: 700,
      retryPeriodMs: 100,
      logger: silentLogger,
      onStartedLeading: () => void log.push(`${identity} leads`),
      onStoppedLeading: () => void log.push(`${identity} stops`),
      ...extra,
    });
  }

  it('lets one of two lead, and the other take over when the leader stops renewing', async () => {
    const log: string[] = [];
    const a = elector('a', log);
    a.start();
    await waitFor('a to lead', () => a.isLeader(), 3000);
    const b = elector('b', log);
    b.start();
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.ok(!b.isLeader(), 'b waits while a renews');
    const stoppedAt = Date.now();
    await a.stop({ release: false });
    await waitFor('b to take over', () => b.isLeader(), 4000);
    assert.ok(Date.now() - stoppedAt >= 500, 'not before the lease expired');
    assert.deepEqual(log, ['a leads', 'a stops', 'b leads']);

    // A released lease passes on without waiting for expiry.
    const c = elector('c', log);
    c.start();
    const released = Date.now();
    await b.stop();
    await waitFor('c to take over', () => c.isLeader(), 3000);
    assert.ok(Date.now() - released < 900, 'released leases are taken at once');
    await c.stop();
  });
});
