import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileEligibility, daemonTolerations, effectiveTaints, type PlacementFields } from './node-eligibility.js';
import type { ConditionStatus, Node, Taint } from '../../api/core/index.js';

function node(name: string, labels: Record<string, string> = {}, taints: Taint[] = [], ready: ConditionStatus = 'True', unschedulable = false): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels },
    spec: { taints, unschedulable },
    status: { conditions: [{ type: 'Ready', status: ready }] },
  };
}

const eligible = (spec: PlacementFields, n: Node) => compileEligibility(spec)(n);

describe('daemon pod node eligibility', () => {
  it('runs on every ready node by default, cordoned ones included', () => {
    assert.deepEqual(eligible({}, node('a')), { shouldRun: true, shouldContinueRunning: true });
    assert.deepEqual(eligible({}, node('a', {}, [], 'True', true)), { shouldRun: true, shouldContinueRunning: true });
  });

  it('follows nodeSelector and required node affinity, matchExpressions and matchFields', () => {
    assert.equal(eligible({ nodeSelector: { disk: 'ssd' } }, node('a', { disk: 'ssd' })).shouldRun, true);
    assert.deepEqual(eligible({ nodeSelector: { disk: 'ssd' } }, node('a', { disk: 'hdd' })), { shouldRun: false, shouldContinueRunning: false });
    const affinity = (terms: unknown) =>
      ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } }) as PlacementFields;
    // Term semantics are tested in src/api/scheduling/node-affinity.test.ts; here, that labels and name reach them.
    const zoneIn = affinity([{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['eu-1', 'eu-2'] }] }]);
    assert.equal(eligible(zoneIn, node('a', { zone: 'eu-2' })).shouldRun, true);
    assert.equal(eligible(zoneIn, node('a', { zone: 'us-1' })).shouldRun, false);
    const byName = affinity([{ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['b'] }] }]);
    assert.equal(eligible(byName, node('a')).shouldRun, true);
    assert.equal(eligible(byName, node('b')).shouldRun, false);
    assert.equal(eligible({ ...zoneIn, nodeSelector: { disk: 'ssd' } }, node('a', { zone: 'eu-2' })).shouldRun, false);
    assert.equal(eligible({ nodeName: 'b' }, node('a')).shouldRun, false);
  });

  it('needs tolerations for NoSchedule and NoExecute taints; only NoExecute evicts', () => {
    const gpuTaint: Taint = { key: 'gpu', value: 'true', effect: 'NoSchedule' };
    assert.deepEqual(eligible({}, node('a', {}, [gpuTaint])), { shouldRun: false, shouldContinueRunning: true });
    assert.deepEqual(eligible({ tolerations: [{ key: 'gpu', operator: 'Equal', value: 'true', effect: 'NoSchedule' }] }, node('a', {}, [gpuTaint])), {
      shouldRun: true,
      shouldContinueRunning: true,
    });
    assert.deepEqual(eligible({ tolerations: [{ key: 'gpu', operator: 'Equal', value: 'false' }] }, node('a', {}, [gpuTaint])).shouldRun, false);
    assert.deepEqual(eligible({}, node('a', {}, [{ key: 'dedicated', effect: 'NoExecute' }])), { shouldRun: false, shouldContinueRunning: false });
    assert.deepEqual(eligible({ tolerations: [{ operator: 'Exists' }] }, node('a', {}, [{ key: 'dedicated', effect: 'NoExecute' }])).shouldRun, true);
    assert.equal(eligible({}, node('a', {}, [{ key: 'x', effect: 'PreferNoSchedule' }])).shouldRun, true);
  });

  it('tolerates what Kubernetes lets daemon pods tolerate: pressure, cordon, not-ready and unreachable NoExecute', () => {
    for (const key of [
      'node.kubernetes.io/disk-pressure',
      'node.kubernetes.io/memory-pressure',
      'node.kubernetes.io/pid-pressure',
      'node.kubernetes.io/unschedulable',
    ]) {
      assert.equal(eligible({}, node('a', {}, [{ key, effect: 'NoSchedule' }])).shouldRun, true, key);
    }
    assert.deepEqual(eligible({}, node('a', {}, [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }])).shouldRun, true);
    // The NoSchedule taints of unreachable or not-ready nodes keep new daemon pods away, but not old ones.
    const unreachable = node(
      'a',
      {},
      [
        { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
      ],
      'Unknown',
    );
    assert.deepEqual(eligible({}, unreachable), { shouldRun: false, shouldContinueRunning: true });
    assert.deepEqual(eligible({}, node('a', {}, [], 'False')), { shouldRun: false, shouldContinueRunning: true });
    assert.equal(eligible({ hostNetwork: true }, node('a', {}, [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }])).shouldRun, true);
    assert.equal(eligible({}, node('a', {}, [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }])).shouldRun, false);
  });

  it("adds the standard tolerations once, keeping the template's", () => {
    const own = { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' };
    const tolerations = daemonTolerations({ tolerations: [own, { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] });
    assert.deepEqual(tolerations[0], own);
    assert.equal(tolerations.filter((t) => t.key === 'node.kubernetes.io/unschedulable').length, 1);
    assert.equal(tolerations.length, 7);
    assert.ok(tolerations.some((t) => t.key === 'node.kubernetes.io/not-ready' && t.effect === 'NoExecute' && t.tolerationSeconds === undefined));
  });

  it('derives not-ready and unreachable taints from the Ready condition', () => {
    assert.deepEqual(
      effectiveTaints(node('a', {}, [], 'False')).map((t) => t.key),
      ['node.kubernetes.io/not-ready'],
    );
    assert.deepEqual(
      effectiveTaints(node('a', {}, [], 'Unknown')).map((t) => t.key),
      ['node.kubernetes.io/unreachable'],
    );
    assert.deepEqual(effectiveTaints(node('a')), []);
  });
});
