// The concurrency limit: never more than its limit at once, waiters in order, and a failed call
// frees its place like a finished one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConcurrencyLimit } from './concurrency-limit.js';

describe('concurrency limit', () => {
  it('runs at most `limit` calls at once, the others in the order they came, failures included', async () => {
    const starts = new ConcurrencyLimit(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const call = (i: number) =>
      starts.run(async () => {
        running++;
        most = Math.max(most, running);
        order.push(i);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        if (i % 3 === 0) throw new Error(`call ${i} failed`);
        return i;
      });
    const results = await Promise.allSettled(Array.from({ length: 9 }, (_, i) => call(i)));
    assert.equal(most, 2);
    assert.deepEqual(order, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['rejected', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
    );
    // Every place is free again: as many as the limit start at once.
    let started = 0;
    const gates = [starts.run(async () => started++), starts.run(async () => started++)];
    await Promise.all(gates);
    assert.equal(started, 2);
  });
});
