import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KeyedBackoff, formatDelay } from './backoff.js';

test('first failure retries at once, then 10 s doubling to 5 min', () => {
  let now = 0;
  const b = new KeyedBackoff({ now: () => now });
  assert.equal(b.remaining('k', 0), 0);
  b.next('k', 0);
  now = 1000;
  assert.equal(b.remaining('k', 1000), 10_000);
  now = 11_000;
  assert.equal(b.remaining('k', 1000), 0);
  const delays: number[] = [];
  for (let i = 0; i < 8; i++) {
    b.next('k', now);
    delays.push(b.delay('k'));
    now += b.delay('k');
  }
  assert.deepEqual(delays, [20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000, 300_000]);
});

test('a failure more than 10 min after the last one starts over', () => {
  let now = 0;
  const b = new KeyedBackoff({ now: () => now });
  b.next('k', 0);
  b.next('k', 10_000);
  assert.equal(b.delay('k'), 20_000);
  now = 10_000 + 601_000;
  assert.equal(b.remaining('k', now), 0);
  b.next('k', now);
  assert.equal(b.delay('k'), 10_000);
});

test('formatDelay prints like the kubelet', () => {
  assert.equal(formatDelay(10_000), '10s');
  assert.equal(formatDelay(160_000), '2m40s');
  assert.equal(formatDelay(300_000), '5m0s');
});
