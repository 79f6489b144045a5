import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { silentLogger } from '../../../client/logger.js';
import { FakeRuntime } from '../../../../test/support/agent/fake-runtime.js';
import { waitFor } from '../../../../test/support/wait-for.js';
import { SandboxPool } from './pool.js';
import { SandboxReaper } from './reaper.js';

const owner = { clusterId: 'c1', nodeName: 'n1' };
const RANGE = '10.42.3.0/24';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function poolOn(fake: FakeRuntime, opts: { min?: number; max?: number; range?: () => string | undefined; reaper?: SandboxReaper; checkMs?: number } = {}) {
  const reaper = opts.reaper ?? new SandboxReaper(silentLogger);
  const pool = new SandboxPool({
    runtime: fake,
    pool: fake.sandboxPool!,
    owner,
    reaper,
    nodePodCidr: opts.range ?? (() => RANGE),
    logger: silentLogger,
    settings: { min: opts.min ?? 2, max: opts.max ?? 64 },
    checkMs: opts.checkMs ?? 20,
  });
  return { pool, reaper };
}

const claimFor = (name: string) => ({ pod: { uid: `uid-${name}`, name, namespace: 'default' }, attempt: 0, hostname: name });
const sizeIs = (pool: SandboxPool, n: number) => waitFor(`pool of ${n}`, async () => (pool.size === n ? true : undefined), 5000);

describe('sandbox pool', () => {
  it('fills to its minimum when the node is quiet, and a claim makes a member the pod sandbox', async () => {
    const fake = new FakeRuntime().enablePool();
    const { pool } = poolOn(fake);
    await pool.start();
    await sizeIs(pool, 2);
    const sandbox = await pool.claim(claimFor('web'));
    assert.equal(sandbox?.pod.name, 'web');
    assert.equal(sandbox?.labels['drover.dev/pod-uid'], 'uid-web');
    assert.ok(fake.calls.includes('claimPoolSandbox'));
    await sizeIs(pool, 2); // refilled
    await pool.stop();
    assert.equal(fake.poolMembers.size, 0, 'unclaimed members go when the pool stops');
    assert.equal(fake.sandboxes.length, 1, 'the claimed one is a pod sandbox and stays');
  });

  it('makes nothing while a pod sandbox or container starts, and fills once they have', async () => {
    const fake = new FakeRuntime().enablePool();
    const reaper = new SandboxReaper(silentLogger);
    const sandboxStart = deferred();
    const containerStart = deferred();
    reaper.sandboxStarting(sandboxStart.promise);
    reaper.containerStarting(containerStart.promise);
    const { pool } = poolOn(fake, { reaper });
    await pool.start();
    await sleep(100);
    assert.equal(fake.calls.filter((c) => c === 'createPoolSandbox').length, 0);
    sandboxStart.resolve();
    await sleep(50);
    assert.equal(fake.calls.filter((c) => c === 'createPoolSandbox').length, 0, 'a container start still runs');
    containerStart.resolve();
    await sizeIs(pool, 2);
    await pool.stop();
  });

  it('grows to the recent burst of claims, and never past its maximum', async () => {
    const fake = new FakeRuntime().enablePool();
    const { pool } = poolOn(fake, { min: 1, max: 6 });
    await pool.start();
    await sizeIs(pool, 1);
    const claimed = await Promise.all(Array.from({ length: 10 }, (_, i) => pool.claim(claimFor(`p${i}`))));
    assert.equal(claimed.filter(Boolean).length, 1, 'one was ready; the others make their own');
    await sizeIs(pool, 6);
    await sleep(100);
    assert.equal(pool.size, 6);
    await pool.stop();
  });

  it('a member that died behind its back is dropped, removed and made again; a claim skips it', async () => {
    const fake = new FakeRuntime().enablePool();
    const { pool } = poolOn(fake, { min: 1, max: 1, checkMs: 60_000 });
    await pool.start();
    await sizeIs(pool, 1);
    const [dead] = [...fake.poolMembers.keys()];
    fake.killPoolSandbox(dead!);
    const sandbox = await pool.claim(claimFor('web'));
    assert.equal(sandbox, undefined, 'no running member to claim');
    await waitFor('the dead member removed', async () => (fake.poolMembers.has(dead!) ? undefined : true), 5000);
    await sizeIs(pool, 1);
    assert.notEqual([...fake.poolMembers.keys()][0], dead);
    await pool.stop();
  });

  it('the periodic check finds a member removed behind its back and replaces it', async () => {
    const fake = new FakeRuntime().enablePool();
    const { pool } = poolOn(fake, { min: 2, max: 2 });
    await pool.start();
    await sizeIs(pool, 2);
    const [gone] = [...fake.poolMembers.keys()];
    fake.poolMembers.delete(gone!);
    await waitFor('replaced', async () => (fake.poolMembers.size === 2 && !fake.poolMembers.has(gone!) && pool.size === 2 ? true : undefined), 5000);
    await pool.stop();
  });

  it('removes what an earlier agent left unclaimed when it starts', async () => {
    const fake = new FakeRuntime().enablePool();
    const left = await fake.sandboxPool!.create({ labels: { 'drover.dev/cluster': 'c1', 'drover.dev/node': 'n1' }, addressRange: RANGE, keepFree: 0 });
    const other = await fake.sandboxPool!.create({ labels: { 'drover.dev/cluster': 'c2', 'drover.dev/node': 'n1' }, addressRange: RANGE, keepFree: 0 });
    const { pool } = poolOn(fake, { min: 0, max: 4 });
    await pool.start();
    assert.ok(!fake.poolMembers.has(left.id), "the agent's own stale member went");
    assert.ok(fake.poolMembers.has(other.id), "another cluster's stayed");
    await pool.stop();
  });

  it('waits for the node range before making any, and drops members of a range the node no longer has', async () => {
    const fake = new FakeRuntime().enablePool();
    let range: string | undefined;
    const { pool } = poolOn(fake, { min: 1, max: 1, range: () => range });
    await pool.start();
    await sleep(60);
    assert.equal(fake.poolMembers.size, 0);
    range = RANGE;
    await sizeIs(pool, 1);
    range = '10.42.9.0/24';
    assert.equal(await pool.claim(claimFor('web')), undefined);
    await waitFor(
      'a member in the new range',
      async () => ([...fake.poolMembers.values()].some((m) => m.addressRange === range) && pool.size === 1 ? true : undefined),
      5000,
    );
    await pool.stop();
  });

  it('shrinks when it holds more than the target', async () => {
    const fake = new FakeRuntime().enablePool();
    let now = 0;
    const reaper = new SandboxReaper(silentLogger);
    const pool = new SandboxPool({
      runtime: fake,
      pool: fake.sandboxPool!,
      owner,
      reaper,
      nodePodCidr: () => RANGE,
      logger: silentLogger,
      settings: { min: 1, max: 8 },
      checkMs: 20,
      now: () => now,
    });
    await pool.start();
    await Promise.all(Array.from({ length: 4 }, (_, i) => pool.claim(claimFor(`p${i}`))));
    await sizeIs(pool, 4);
    now = 30 * 60_000;
    await sizeIs(pool, 1);
    await pool.stop();
  });
});
