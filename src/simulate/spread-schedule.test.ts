import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SpreadSchedule } from './spread-schedule.js';

describe('SpreadSchedule', () => {
  it('spreads N members evenly over the interval', () => {
    assert.deepEqual(
      [0, 1, 2, 3].map((i) => SpreadSchedule.phase(i, 4, 10_000)),
      [0, 2500, 5000, 7500],
    );
    assert.equal(SpreadSchedule.phase(4999, 5000, 10_000), 9998);
  });

  it('hands each member out once per interval, at its phase', () => {
    const schedule = new SpreadSchedule(1000);
    const start = 10_000;
    for (let i = 0; i < 4; i++) schedule.add(`n${i}`, SpreadSchedule.phase(i, 4, 1000), start);
    // n0's phase is 0: its first turn is the next whole interval, not now.
    assert.deepEqual(schedule.take(start), []);
    assert.deepEqual(schedule.take(start + 300), ['n1']);
    assert.deepEqual(schedule.take(start + 800), ['n2', 'n3']);
    assert.deepEqual(schedule.take(start + 1000), ['n0']);
    assert.deepEqual(schedule.take(start + 1000), []);
    assert.deepEqual(schedule.take(start + 1999), ['n1', 'n2', 'n3']);
  });

  it('leaves members beyond the limit due for the next call, earliest first', () => {
    const schedule = new SpreadSchedule(1000);
    for (let i = 0; i < 10; i++) schedule.add(`n${i}`, (i + 1) * 50, 0);
    assert.deepEqual(schedule.take(2000, 3), ['n0', 'n1', 'n2']);
    assert.deepEqual(schedule.take(2000, 3), ['n3', 'n4', 'n5']);
    assert.equal(schedule.take(2000).length, 4);
  });

  it('skips the turns a late member missed and keeps its phase', () => {
    const schedule = new SpreadSchedule(1000);
    schedule.add('n', 250, 0);
    assert.deepEqual(schedule.take(5600), ['n']);
    assert.deepEqual(schedule.take(6000), []);
    assert.deepEqual(schedule.take(6250), ['n']);
  });

  it('forgets removed members', () => {
    const schedule = new SpreadSchedule(1000);
    schedule.add('n', 0, 0);
    schedule.remove('n');
    assert.equal(schedule.size, 0);
    assert.deepEqual(schedule.take(5000), []);
  });
});
