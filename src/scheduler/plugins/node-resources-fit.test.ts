import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createScheduler } from '../index.js';
import { makeNode, makePod, seededRandom, snapshotOf, verdictOf } from '../../../test/support/scheduler/builders.js';
import { nodeResourcesFit } from './node-resources-fit.js';

describe('NodeResourcesFit', () => {
  it('compares requests with what is left after the bound pods', () => {
    const snapshot = snapshotOf([makeNode({ name: 'n', cpu: '2', memory: '2Gi' })], [makePod({ name: 'x', cpu: '1500m', memory: '1Gi', nodeName: 'n' })]);
    assert.equal(verdictOf(nodeResourcesFit(), makePod({ name: 'p', cpu: '500m', memory: '1Gi' }), 'n', snapshot), 'ok');
    assert.equal(verdictOf(nodeResourcesFit(), makePod({ name: 'p', cpu: '501m' }), 'n', snapshot), 'Insufficient cpu');
    assert.deepEqual(verdictOf(nodeResourcesFit(), makePod({ name: 'p', cpu: '1', memory: '2Gi' }), 'n', snapshot), [
      'Insufficient cpu',
      'Insufficient memory',
    ]);
  });

  it('checks ephemeral-storage and the pods count', () => {
    const snapshot = snapshotOf([makeNode({ name: 'n', pods: 1, ephemeralStorage: '1Gi' })]);
    assert.equal(
      verdictOf(nodeResourcesFit(), makePod({ name: 'p', requests: { 'ephemeral-storage': '2Gi' } }), 'n', snapshot),
      'Insufficient ephemeral-storage',
    );
    snapshot.addPod(makePod({ name: 'x', nodeName: 'n' }));
    assert.equal(verdictOf(nodeResourcesFit(), makePod({ name: 'p' }), 'n', snapshot), 'Too many pods');
  });

  it('a pod without requests fits a full node (it asks for nothing)', () => {
    const snapshot = snapshotOf([makeNode({ name: 'n', cpu: '1' })], [makePod({ name: 'x', cpu: '1', nodeName: 'n' })]);
    assert.equal(verdictOf(nodeResourcesFit(), makePod({ name: 'p' }), 'n', snapshot), 'ok');
  });

  it('extended resources: a GPU pod only fits nodes with a free GPU', () => {
    const snapshot = snapshotOf(
      [
        makeNode({ name: 'cpu-only' }),
        makeNode({ name: 'gpu-busy', extended: { 'example.com/gpu': '1' } }),
        makeNode({ name: 'gpu-free', extended: { 'example.com/gpu': '2' } }),
      ],
      [
        makePod({ name: 'trainer', requests: { 'example.com/gpu': '1' }, nodeName: 'gpu-busy' }),
        makePod({ name: 'trainer2', requests: { 'example.com/gpu': '1' }, nodeName: 'gpu-free' }),
      ],
    );
    const gpuPod = makePod({ name: 'p', requests: { 'example.com/gpu': '1' } });
    assert.equal(verdictOf(nodeResourcesFit(), gpuPod, 'cpu-only', snapshot), 'Insufficient example.com/gpu');
    assert.equal(verdictOf(nodeResourcesFit(), gpuPod, 'gpu-busy', snapshot), 'Insufficient example.com/gpu');
    assert.equal(verdictOf(nodeResourcesFit(), gpuPod, 'gpu-free', snapshot), 'ok');

    const scheduler = createScheduler({ random: seededRandom() });
    const result = scheduler.schedulePod(gpuPod, snapshot);
    assert.deepEqual(result, { node: 'gpu-free', permit: 'allow' });
    const next = scheduler.schedulePod(makePod({ name: 'q', requests: { 'example.com/gpu': '1' } }), snapshot);
    assert.ok('unschedulable' in next);
    assert.equal(next.message, '0/3 nodes are available: 3 Insufficient example.com/gpu.');
  });
});
