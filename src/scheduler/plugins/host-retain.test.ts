import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createScheduler } from '../index.js';
import { makeNode, makePod, seededRandom, snapshotOf } from '../../../test/support/scheduler/builders.js';

const T0 = Date.parse('2025-01-01T00:00:00Z');

function replacement(until: string, node = 'home') {
  return makePod({
    name: 'web-2',
    cpu: '100m',
    annotations: { 'drover.dev/host-retain': '300', 'drover.dev/retain-node': node, 'drover.dev/retain-until': until },
  });
}

function scheduler(now: number) {
  return createScheduler({ now: () => now, random: seededRandom() });
}

describe('host retain', () => {
  it('before the deadline, goes back to the retained node even when others are emptier', () => {
    const snapshot = snapshotOf([makeNode({ name: 'home' }), makeNode({ name: 'other' })], [makePod({ name: 'x', cpu: '3', nodeName: 'home' })]);
    assert.deepEqual(scheduler(T0).schedulePod(replacement('2025-01-01T00:05:00Z'), snapshot), { node: 'home', permit: 'allow' });
  });

  it('while the retained node is not Ready, waits (retry at the deadline) instead of going elsewhere', () => {
    const snapshot = snapshotOf([makeNode({ name: 'home', ready: 'Unknown' }), makeNode({ name: 'other' })]);
    const result = scheduler(T0).schedulePod(replacement('2025-01-01T00:05:00Z'), snapshot);
    assert.deepEqual(result, {
      unschedulable: true,
      message: "0/2 nodes are available: 1 node(s) didn't match the pod's retained node, 1 node(s) were not ready.",
      reasonsPerNode: { home: ['node(s) were not ready'], other: ["node(s) didn't match the pod's retained node"] },
      retryAfterMs: 300_000,
    });
  });

  it('after the deadline, any node', () => {
    const snapshot = snapshotOf([makeNode({ name: 'home', ready: 'Unknown' }), makeNode({ name: 'other' })]);
    assert.deepEqual(scheduler(T0 + 300_000).schedulePod(replacement('2025-01-01T00:05:00Z'), snapshot), { node: 'other', permit: 'allow' });
  });

  it('when the retained node is gone, any node', () => {
    const snapshot = snapshotOf([makeNode({ name: 'other' })]);
    assert.deepEqual(scheduler(T0).schedulePod(replacement('2025-01-01T00:05:00Z'), snapshot), { node: 'other', permit: 'allow' });
  });

  it('an unreadable deadline holds nothing', () => {
    const snapshot = snapshotOf([makeNode({ name: 'home', ready: 'False' }), makeNode({ name: 'other' })]);
    assert.deepEqual(scheduler(T0).schedulePod(replacement('tomorrow'), snapshot), { node: 'other', permit: 'allow' });
  });
});
