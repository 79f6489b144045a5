import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BURST_WINDOW_MS, DECAY_MS, PoolSizer } from './pool-sizer.js';

describe('sandbox pool sizer', () => {
  it('keeps the minimum while nothing asks', () => {
    const sizer = new PoolSizer(2, 64);
    assert.equal(sizer.target(0), 2);
    assert.equal(sizer.target(10 * DECAY_MS), 2);
  });

  it('grows to the burst of pods that asked within the window', () => {
    const sizer = new PoolSizer(2, 64);
    for (let i = 0; i < 20; i++) sizer.asked(1000 + i * 10);
    assert.equal(sizer.target(2000), 20);
  });

  it('counts asks spread wider than the window as smaller bursts', () => {
    const sizer = new PoolSizer(1, 64);
    for (let i = 0; i < 6; i++) sizer.asked(i * BURST_WINDOW_MS);
    assert.equal(sizer.target(6 * BURST_WINDOW_MS), 1);
  });

  it('never goes past the maximum', () => {
    const sizer = new PoolSizer(2, 8);
    for (let i = 0; i < 50; i++) sizer.asked(i);
    assert.equal(sizer.target(100), 8);
  });

  it('shrinks slowly, a quarter per quiet period, down to the minimum', () => {
    const sizer = new PoolSizer(2, 64);
    for (let i = 0; i < 40; i++) sizer.asked(i);
    assert.equal(sizer.target(DECAY_MS - 1), 40);
    assert.equal(sizer.target(DECAY_MS + 40), 30);
    assert.equal(sizer.target(2 * DECAY_MS + 40), 22);
    assert.equal(sizer.target(60 * DECAY_MS), 2);
  });

  it('a new burst at least the decayed size sets the size again', () => {
    const sizer = new PoolSizer(0, 64);
    for (let i = 0; i < 8; i++) sizer.asked(i);
    const later = 3 * DECAY_MS + 10;
    assert.equal(sizer.target(later), 3);
    for (let i = 0; i < 5; i++) sizer.asked(later + i);
    assert.equal(sizer.target(later + 10), 5);
    assert.equal(sizer.target(later + DECAY_MS + 10), 3);
  });
});
