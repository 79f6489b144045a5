import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../client/index.js';
import { PeriodicCalls } from './periodic-calls.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PeriodicCalls', () => {
  it('calls every member about once per interval, never more than `concurrency` at once', async () => {
    let inFlight = 0;
    let most = 0;
    const calls = new Map<string, number>();
    const periodic = new PeriodicCalls({
      name: 'test',
      intervalMs: 200,
      concurrency: 3,
      tickMs: 5,
      logger: silentLogger,
      call: async (key) => {
        inFlight++;
        most = Math.max(most, inFlight);
        calls.set(key, (calls.get(key) ?? 0) + 1);
        await sleep(10);
        inFlight--;
      },
    });
    for (let i = 0; i < 10; i++) periodic.add(`n${i}`, i, 10);
    periodic.start();
    await sleep(650);
    await periodic.stop();
    assert.ok(most <= 3, `at most 3 in flight, saw ${most}`);
    for (let i = 0; i < 10; i++) {
      const n = calls.get(`n${i}`) ?? 0;
      assert.ok(n >= 2 && n <= 4, `n${i} was called ${n} times in 3 intervals`);
    }
    assert.equal(periodic.stats.failures, 0);
  });

  it('does not call a member again while its last call runs, and counts failures', async () => {
    let calls = 0;
    const periodic = new PeriodicCalls({
      name: 'test',
      intervalMs: 20,
      concurrency: 10,
      tickMs: 5,
      logger: silentLogger,
      call: async () => {
        calls++;
        await sleep(100);
        throw new Error('server down');
      },
    });
    periodic.add('slow', 0, 1);
    periodic.start();
    await sleep(180);
    await periodic.stop();
    assert.ok(calls <= 2, `a call that takes 5 intervals is not overlapped (${calls} calls)`);
    assert.equal(periodic.stats.failures, calls);
  });
});
