import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Expectations } from './expectations.js';

describe('Expectations', () => {
  it('is satisfied once every expected creation and deletion is observed', () => {
    const e = new Expectations();
    assert.ok(e.satisfied('rs'), 'no expectations');
    e.expectCreations('rs', 2);
    assert.ok(!e.satisfied('rs'));
    e.creationObserved('rs');
    assert.ok(!e.satisfied('rs'));
    e.creationObserved('rs');
    assert.ok(e.satisfied('rs'));
    e.creationObserved('rs');
    assert.deepEqual(e.pending('rs'), { adds: 0, dels: 0 }, 'never below zero');
    e.expectDeletions('rs', 1);
    assert.ok(!e.satisfied('rs'));
    e.deletionObserved('rs');
    assert.ok(e.satisfied('rs'));
    e.raise('rs', 1, 1);
    assert.deepEqual(e.pending('rs'), { adds: 1, dels: 1 });
    e.delete('rs');
    assert.equal(e.pending('rs'), undefined);
    assert.ok(e.satisfied('rs'));
  });

  it('counts a named deletion once even when it is observed twice', () => {
    const e = new Expectations();
    e.expectDeletions('rs', ['ns/a', 'ns/b']);
    e.deletionObserved('rs', 'ns/a');
    e.deletionObserved('rs', 'ns/a');
    e.deletionObserved('rs', 'ns/other');
    assert.deepEqual(e.pending('rs'), { adds: 0, dels: 1 });
    e.deletionObserved('rs', 'ns/b');
    assert.ok(e.satisfied('rs'));
  });

  it('is satisfied when the TTL expires', () => {
    let now = 0;
    const e = new Expectations({ ttlMs: 1000, now: () => now });
    e.expectCreations('job', 5);
    now = 1000;
    assert.ok(!e.satisfied('job'));
    now = 1001;
    assert.ok(e.satisfied('job'));
  });
});
