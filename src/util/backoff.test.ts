import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Backoff, backoffDelay } from './backoff.js';

test('doubles from the initial delay up to the cap', () => {
  const policy = { initialMs: 500, maxMs: 10_000 };
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5, 6].map((attempt) => backoffDelay(policy, attempt)),
    [500, 1000, 2000, 4000, 8000, 10_000, 10_000],
  );
  assert.equal(backoffDelay(policy, 5000), 10_000, 'no overflow however many attempts');
  assert.equal(backoffDelay({ initialMs: 0, maxMs: 10 }, 5000), 0);
});

test('jitter adds up to its fraction of the delay, rounded', () => {
  const policy = { initialMs: 100, maxMs: 1000, jitter: 0.2 };
  assert.equal(
    backoffDelay(policy, 0, () => 0),
    100,
  );
  assert.equal(
    backoffDelay(policy, 0, () => 0.5),
    110,
  );
  assert.equal(
    backoffDelay(policy, 9, () => 0.999),
    1200,
  );
});

test('Backoff counts its own attempts until reset', () => {
  const backoff = new Backoff({ initialMs: 20, maxMs: 500 });
  assert.deepEqual(
    Array.from({ length: 7 }, () => backoff.next()),
    [20, 40, 80, 160, 320, 500, 500],
  );
  backoff.reset();
  assert.equal(backoff.next(), 20);
});
