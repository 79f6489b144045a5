import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { runController, TerminalError } from './controller-runner.js';
import { silentLogger } from './logger.js';
import { ExponentialRateLimiter } from './rate-limiter.js';
import { WorkQueue } from './work-queue.js';
import { waitFor } from '../../test/support/wait-for.js';

describe('runController', () => {
  it('retries thrown errors with back-off, then forgets the key on success', async () => {
    const queue = new WorkQueue<string>({ rateLimiter: new ExponentialRateLimiter(40) });
    const attempts: number[] = [];
    const controller = runController({
      name: 'test',
      queue,
      workers: 2,
      logger: silentLogger,
      reconcile: async (key) => {
        attempts.push(Date.now());
        if (key === 'flaky' && attempts.length < 4) throw new Error('not yet');
      },
    });
    queue.add('flaky');
    await waitFor('four attempts', () => attempts.length === 4, 2000);
    await sleep(10);
    assert.equal(queue.numRequeues('flaky'), 0, 'forgotten after success');
    // Timers never fire early, so each gap is at least its back-off: 40, 80, 160 ms.
    const gaps = attempts.slice(1).map((t, i) => t - attempts[i]!);
    gaps.forEach((gap, i) => assert.ok(gap >= 40 * 2 ** i - 2, `back-off grows: ${gaps.join(', ')}`));
    await controller.stop();
  });

  it('drops a key on TerminalError and survives synchronous throws', async () => {
    const queue = new WorkQueue<string>();
    const calls = new Map<string, number>();
    const controller = runController({
      name: 'test',
      queue,
      logger: silentLogger,
      reconcile: (key) => {
        calls.set(key, (calls.get(key) ?? 0) + 1);
        if (key === 'terminal') return Promise.reject(new TerminalError('bad spec'));
        if (key === 'sync-throw' && calls.get(key) === 1) throw new Error('boom');
        return Promise.resolve();
      },
    });
    queue.add('terminal');
    queue.add('sync-throw');
    await waitFor('sync-throw retried', () => calls.get('sync-throw') === 2, 2000);
    queue.add('ok');
    await waitFor('runner still alive', () => calls.get('ok') === 1, 2000);
    await sleep(50);
    assert.equal(calls.get('terminal'), 1, 'not retried');
    await controller.stop();
  });

  it('requeues after requeueAfterMs and stops with in-flight work finished', async () => {
    const queue = new WorkQueue<string>();
    let runs = 0;
    let inFlight = false;
    const controller = runController({
      name: 'test',
      queue,
      logger: silentLogger,
      reconcile: async () => {
        runs++;
        inFlight = true;
        await sleep(20);
        inFlight = false;
        return { requeueAfterMs: 30 };
      },
    });
    queue.add('periodic');
    await waitFor('three periodic runs', () => runs >= 3, 2000);
    await controller.stop();
    assert.equal(inFlight, false);
    const after = runs;
    await sleep(80);
    assert.equal(runs, after, 'nothing runs after stop');
  });
});
