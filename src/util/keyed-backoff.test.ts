import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KeyedBackoff, formatDelay } from './keyed-backoff.js';

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

test('since the last update: 1 s doubling to 15 min, as the DaemonSet controller backs off failed pods', () => {
  const b = new KeyedBackoff({ initialMs: 1000, maxMs: 15 * 60_000 });
  assert.equal(b.remainingSinceUpdate('ds/node-a', 0), 0);
  b.next('ds/node-a', 0);
  assert.equal(b.remainingSinceUpdate('ds/node-a', 400), 600);
  assert.equal(b.remainingSinceUpdate('ds/node-a', 1000), 0);
  assert.equal(b.remainingSinceUpdate('ds/node-b', 400), 0);
  b.next('ds/node-a', 1000);
  assert.equal(b.remainingSinceUpdate('ds/node-a', 1500), 1500);
  let now = 1000;
  for (let i = 0; i < 12; i++) b.next('ds/node-a', (now += 1000));
  assert.equal(b.delay('ds/node-a'), 15 * 60_000);
  // A quiet spell of more than twice the cap starts over from the initial delay.
  now += 2 * 15 * 60_000 + 1;
  assert.equal(b.remainingSinceUpdate('ds/node-a', now), 0);
  b.next('ds/node-a', now);
  assert.equal(b.delay('ds/node-a'), 1000);
});

test('resetPrefix forgets every key of one owner', () => {
  const b = new KeyedBackoff({ initialMs: 1000 });
  b.next('uid-1/a', 0);
  b.next('uid-1/b', 0);
  b.next('uid-2/a', 0);
  b.resetPrefix('uid-1/');
  assert.equal(b.remainingSinceUpdate('uid-1/a', 10), 0);
  assert.equal(b.remainingSinceUpdate('uid-1/b', 10), 0);
  assert.equal(b.remainingSinceUpdate('uid-2/a', 10), 990);
});

test('without forgetAfterMs a key counts its failures until reset, however far apart', () => {
  const b = new KeyedBackoff({ initialMs: 500, maxMs: 30_000, forgetAfterMs: Infinity });
  b.next('k', 0);
  b.next('k', 3_600_000);
  assert.equal(b.failures('k'), 2);
  assert.equal(b.delay('k'), 1000);
  b.reset('k');
  assert.equal(b.failures('k'), 0);
  assert.equal(b.delay('k'), 0);
});

test('the latest failure is the one waits count from, whatever order failures come in', () => {
  const b = new KeyedBackoff({ initialMs: 1000, maxMs: 60_000 });
  b.next('k', 5000);
  b.next('k', 3000);
  assert.equal(b.delay('k'), 2000);
  assert.equal(b.remainingSinceUpdate('k', 5000), 2000);
});
