import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeNode, makePod, scoresOf, snapshotOf, verdictOf } from '../../../test/support/scheduler/builders.js';
import { nodeAffinity } from './node-affinity.js';

const REASON = "node(s) didn't match Pod's node affinity/selector";

const snapshot = snapshotOf([
  makeNode({ name: 'a', labels: { zone: 'eu-1', disk: 'ssd', cores: '16' } }),
  makeNode({ name: 'b', labels: { zone: 'eu-2', cores: '4' } }),
  makeNode({ name: 'c', labels: { zone: 'us-1', disk: 'hdd', cores: 'many' } }),
]);

function required(...terms: unknown[]) {
  return makePod({ name: 'p', spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } } });
}

function admitted(pod: ReturnType<typeof makePod>): string[] {
  return ['a', 'b', 'c'].filter((n) => verdictOf(nodeAffinity(), pod, n, snapshot) === 'ok');
}

describe('NodeAffinity filter', () => {
  it('nodeSelector needs every label', () => {
    assert.deepEqual(admitted(makePod({ name: 'p', spec: { nodeSelector: { disk: 'ssd' } } })), ['a']);
    assert.equal(verdictOf(nodeAffinity(), makePod({ name: 'p', spec: { nodeSelector: { disk: 'ssd', zone: 'eu-2' } } }), 'a', snapshot), REASON);
  });

  // Term semantics (operators, ORed terms, empty terms) are tested in src/api/scheduling/node-affinity.test.ts.
  it('runs the required terms: an empty one admits no node', () => {
    assert.deepEqual(admitted(required({ matchExpressions: [{ key: 'disk', operator: 'Exists' }] })), ['a', 'c']);
    assert.deepEqual(admitted(required({})), []);
  });

  it('matchFields metadata.name pins the pod to those nodes and tries no other', () => {
    const pod = required({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['b'] }] });
    assert.deepEqual(admitted(pod), ['b']);
    assert.equal(verdictOf(nodeAffinity(), pod, 'a', snapshot), REASON);
    const notIn = required({ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['b'] }] });
    assert.deepEqual(admitted(notIn), ['a', 'c']);
  });

  it('nodeSelector and required affinity must both hold', () => {
    const pod = makePod({
      name: 'p',
      spec: {
        nodeSelector: { disk: 'ssd' },
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['eu-2'] }] }] },
          },
        },
      },
    });
    assert.deepEqual(admitted(pod), []);
  });
});

describe('NodeAffinity score', () => {
  it('sums the weights of matching preferred terms, normalized to 0–100', () => {
    const pod = makePod({
      name: 'p',
      spec: {
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 80, preference: { matchExpressions: [{ key: 'disk', operator: 'Exists' }] } },
              { weight: 20, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['eu-1', 'eu-2'] }] } },
            ],
          },
        },
      },
    });
    assert.deepEqual(scoresOf(nodeAffinity(), pod, ['a', 'b', 'c'], snapshot), [100, 20, 80]);
  });
});
