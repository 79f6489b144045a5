import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeNode, makePod, snapshotOf, verdictOf } from '../../../test/support/scheduler/builders.js';
import { nodeReady, nodeUnschedulable } from './node-status.js';

describe('NodeUnschedulable', () => {
  const snapshot = snapshotOf([makeNode({ name: 'cordoned', unschedulable: true }), makeNode({ name: 'open' })]);

  it('rejects cordoned nodes', () => {
    assert.equal(verdictOf(nodeUnschedulable(), makePod({ name: 'p' }), 'cordoned', snapshot), 'node(s) were unschedulable');
    assert.equal(verdictOf(nodeUnschedulable(), makePod({ name: 'p' }), 'open', snapshot), 'ok');
  });

  it('admits pods tolerating node.kubernetes.io/unschedulable', () => {
    const tolerant = makePod({ name: 'ds', spec: { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] } });
    assert.equal(verdictOf(nodeUnschedulable(), tolerant, 'cordoned', snapshot), 'ok');
    const wrongEffect = makePod({ name: 'p', spec: { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoExecute' }] } });
    assert.equal(verdictOf(nodeUnschedulable(), wrongEffect, 'cordoned', snapshot), 'node(s) were unschedulable');
  });
});

describe('NodeReady', () => {
  const snapshot = snapshotOf([
    makeNode({ name: 'ready' }),
    makeNode({ name: 'not-ready', ready: 'False' }),
    makeNode({ name: 'unknown', ready: 'Unknown' }),
    makeNode({ name: 'silent', ready: 'missing' }),
  ]);

  it('admits only Ready=True nodes', () => {
    const pod = makePod({ name: 'p' });
    assert.equal(verdictOf(nodeReady(), pod, 'ready', snapshot), 'ok');
    for (const name of ['not-ready', 'unknown', 'silent']) {
      assert.equal(verdictOf(nodeReady(), pod, name, snapshot), 'node(s) were not ready', name);
    }
  });

  it('the default NoExecute tolerations every pod carries do not count', () => {
    const pod = makePod({
      name: 'p',
      spec: {
        tolerations: [
          { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
          { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        ],
      },
    });
    assert.equal(verdictOf(nodeReady(), pod, 'not-ready', snapshot), 'node(s) were not ready');
  });

  it('a pod tolerating the not-ready or unreachable NoSchedule taint may go there', () => {
    const notReady = makePod({ name: 'p', spec: { tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }] } });
    assert.equal(verdictOf(nodeReady(), notReady, 'not-ready', snapshot), 'ok');
    assert.equal(verdictOf(nodeReady(), notReady, 'unknown', snapshot), 'node(s) were not ready');
    const everything = makePod({ name: 'q', spec: { tolerations: [{ operator: 'Exists' }] } });
    assert.equal(verdictOf(nodeReady(), everything, 'unknown', snapshot), 'ok');
  });
});
