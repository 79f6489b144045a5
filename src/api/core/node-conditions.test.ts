import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isNodeReady, nodeReadyStatus, type NodeWithStatus } from './node-conditions.js';
import type { NodeCondition } from './node.js';

const withConditions = (...conditions: NodeCondition[]): NodeWithStatus => ({ status: { conditions } });

describe('node conditions', () => {
  it('reads the Ready condition, and nothing when there is none', () => {
    assert.equal(nodeReadyStatus({}), undefined);
    assert.equal(nodeReadyStatus(withConditions({ type: 'MemoryPressure', status: 'True' })), undefined, 'another condition is not Ready');
    assert.equal(nodeReadyStatus(withConditions({ type: 'MemoryPressure', status: 'False' }, { type: 'Ready', status: 'Unknown' })), 'Unknown');
  });

  it('counts a node ready only when Ready is True', () => {
    assert.equal(isNodeReady(withConditions({ type: 'Ready', status: 'True' })), true);
    assert.equal(isNodeReady(withConditions({ type: 'Ready', status: 'False' })), false);
    assert.equal(isNodeReady(withConditions({ type: 'Ready', status: 'Unknown' })), false);
    assert.equal(isNodeReady({}), false);
  });
});
