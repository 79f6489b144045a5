import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { slowStartBatch } from './slow-start.js';

describe('slowStartBatch', () => {
  it('creates in slow-start batches and stops after a failing batch', async () => {
    const batches: number[][] = [];
    let current: number[] = [];
    const result = await slowStartBatch([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 1, async (i) => {
      if (current.length === 0) batches.push(current);
      current.push(i);
      await new Promise((resolve) => setImmediate(resolve));
      current = [];
    });
    assert.equal(result.succeeded, 10);
    assert.deepEqual(batches, [[0], [1, 2], [3, 4, 5, 6], [7, 8, 9]]);
    let calls = 0;
    const failing = await slowStartBatch([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 1, async (i) => {
      calls++;
      if (i === 2) throw new Error('quota');
    });
    assert.equal(calls, 3, 'batches of 1 and 2, then stop');
    assert.equal(failing.succeeded, 2);
    assert.match(String(failing.errors[0]), /quota/);
  });
});
