import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeNode, makePod, scoresOf, snapshotOf, verdictOf } from '../../../test/support/scheduler/builders.js';
import { taintToleration } from './taint-toleration.js';

const snapshot = snapshotOf([
  makeNode({ name: 'clean' }),
  makeNode({ name: 'gpu', taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }] }),
  makeNode({ name: 'gone', taints: [{ key: 'node.kubernetes.io/unreachable', value: '', effect: 'NoExecute' }] }),
  makeNode({ name: 'soft', taints: [{ key: 'spot', value: 'yes', effect: 'PreferNoSchedule' }] }),
  makeNode({
    name: 'softer',
    taints: [
      { key: 'spot', value: 'yes', effect: 'PreferNoSchedule' },
      { key: 'old', value: '', effect: 'PreferNoSchedule' },
    ],
  }),
]);

function tolerating(...tolerations: unknown[]) {
  return makePod({ name: 'p', spec: { tolerations } });
}

describe('TaintToleration filter', () => {
  it('rejects untolerated NoSchedule and NoExecute taints, naming the taint', () => {
    const pod = makePod({ name: 'p' });
    assert.equal(verdictOf(taintToleration(), pod, 'gpu', snapshot), 'node(s) had untolerated taint {gpu: true}');
    assert.equal(verdictOf(taintToleration(), pod, 'gone', snapshot), 'node(s) had untolerated taint {node.kubernetes.io/unreachable: }');
    assert.equal(verdictOf(taintToleration(), pod, 'soft', snapshot), 'ok', 'PreferNoSchedule only scores');
  });

  it('Equal needs the value, Exists any value, an empty key with Exists everything', () => {
    assert.equal(verdictOf(taintToleration(), tolerating({ key: 'gpu', value: 'true', effect: 'NoSchedule' }), 'gpu', snapshot), 'ok');
    assert.equal(verdictOf(taintToleration(), tolerating({ key: 'gpu', value: 'false' }), 'gpu', snapshot), 'node(s) had untolerated taint {gpu: true}');
    assert.equal(verdictOf(taintToleration(), tolerating({ key: 'gpu', operator: 'Exists' }), 'gpu', snapshot), 'ok');
    assert.equal(verdictOf(taintToleration(), tolerating({ operator: 'Exists' }), 'gone', snapshot), 'ok');
  });

  it('the effect must match when the toleration names one', () => {
    assert.equal(
      verdictOf(taintToleration(), tolerating({ key: 'gpu', operator: 'Exists', effect: 'NoExecute' }), 'gpu', snapshot),
      'node(s) had untolerated taint {gpu: true}',
    );
  });
});

describe('TaintToleration score', () => {
  it('fewer untolerated PreferNoSchedule taints score higher', () => {
    assert.deepEqual(scoresOf(taintToleration(), makePod({ name: 'p' }), ['clean', 'soft', 'softer'], snapshot), [100, 50, 0]);
    const spotOk = tolerating({ key: 'spot', operator: 'Exists', effect: 'PreferNoSchedule' });
    assert.deepEqual(scoresOf(taintToleration(), spotOk, ['clean', 'soft', 'softer'], snapshot), [100, 100, 0]);
  });
});
