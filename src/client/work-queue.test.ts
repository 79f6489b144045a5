import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BucketRateLimiter, ExponentialRateLimiter, MaxOfRateLimiter } from './rate-limiter.js';
import { WorkQueue } from './work-queue.js';

describe('WorkQueue', () => {
  it('holds a key once however often it is added', async () => {
    const queue = new WorkQueue<string>();
    queue.add('a');
    queue.add('b');
    queue.add('a');
    assert.equal(queue.len(), 2);
    assert.equal(await queue.get(), 'a');
    assert.equal(await queue.get(), 'b');
    assert.equal(queue.len(), 0);
  });

  it('never hands a key to two workers; a key added while processed comes back after done', async () => {
    const queue = new WorkQueue<string>();
    queue.add('a');
    const first = await queue.get();
    assert.equal(first, 'a');
    queue.add('a');
    queue.add('a');
    assert.equal(queue.len(), 0, 'not queued while processing');
    const second = queue.get();
    let handed = false;
    void second.then(() => (handed = true));
    await sleep(5);
    assert.equal(handed, false);
    queue.done('a');
    assert.equal(await second, 'a');
    queue.done('a');
    assert.equal(queue.len(), 0, 'processed once more, not twice');
  });

  it('runs many workers without overlap on one key', async () => {
    const queue = new WorkQueue<string>();
    const active = new Set<string>();
    let overlaps = 0;
    let processed = 0;
    const worker = async () => {
      for (;;) {
        const key = await queue.get();
        if (key === undefined) return;
        if (active.has(key)) overlaps++;
        active.add(key);
        await sleep(1);
        active.delete(key);
        processed++;
        queue.done(key);
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    for (let round = 0; round < 20; round++) {
      for (const key of ['a', 'b', 'c']) queue.add(key);
      await sleep(1);
    }
    await sleep(30);
    queue.shutDown();
    await Promise.all(workers);
    assert.equal(overlaps, 0);
    assert.ok(processed >= 3 && processed <= 60, `processed ${processed}`);
  });

  it('adds after a delay, keeping the earliest of several', async () => {
    const queue = new WorkQueue<string>();
    queue.addAfter('a', 200);
    queue.addAfter('a', 20);
    queue.addAfter('a', 100);
    const started = Date.now();
    assert.equal(await queue.get(), 'a');
    const waited = Date.now() - started;
    assert.ok(waited >= 15 && waited < 150, `waited ${waited} ms`);
    queue.done('a');
    await sleep(220);
    assert.equal(queue.len(), 0, 'the later delays were dropped');
  });

  it('backs off exponentially per key until forgotten', () => {
    const limiter = new ExponentialRateLimiter<string>();
    assert.deepEqual(
      [1, 2, 3, 4].map(() => limiter.when('a')),
      [5, 10, 20, 40],
    );
    assert.equal(limiter.when('b'), 5);
    assert.equal(limiter.retries('a'), 4);
    for (let i = 0; i < 40; i++) limiter.when('a');
    assert.equal(limiter.when('a'), 1_000_000, 'capped at 1000 s');
    limiter.forget('a');
    assert.equal(limiter.when('a'), 5);
    const bucket = new MaxOfRateLimiter(new ExponentialRateLimiter<string>(), new BucketRateLimiter<string>(10, 2));
    assert.deepEqual([bucket.when('x'), bucket.when('y')], [5, 5]);
    assert.ok(bucket.when('z') >= 90, 'the bucket is empty');
  });

  it('retries rate-limited keys and counts requeues', async () => {
    const queue = new WorkQueue<string>();
    queue.addRateLimited('a');
    assert.equal(queue.numRequeues('a'), 1);
    assert.equal(await queue.get(), 'a');
    queue.done('a');
    queue.forget('a');
    assert.equal(queue.numRequeues('a'), 0);
  });

  it('shuts down: waiting workers get undefined and adds are ignored', async () => {
    const queue = new WorkQueue<string>();
    const waiting = queue.get();
    queue.addAfter('later', 10_000);
    queue.shutDown();
    assert.equal(await waiting, undefined);
    queue.add('x');
    assert.equal(queue.len(), 0);
    assert.equal(await queue.get(), undefined);
  });
});
