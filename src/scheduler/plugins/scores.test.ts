import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createScheduler, type ScheduleResult } from '../index.js';
import { makeNode, makePod, scoresOf, seededRandom, snapshotOf } from '../../../test/support/scheduler/builders.js';
import { balancedAllocationPlugin, leastAllocatedPlugin } from './resource-scores.js';
import { siblingSpread } from './sibling-spread.js';

describe('resource scores', () => {
  const snapshot = snapshotOf(
    [
      makeNode({ name: 'empty', cpu: '4', memory: '4Gi' }),
      makeNode({ name: 'half', cpu: '4', memory: '4Gi' }),
      makeNode({ name: 'skewed', cpu: '4', memory: '4Gi' }),
    ],
    [makePod({ name: 'x', cpu: '2', memory: '2Gi', nodeName: 'half' }), makePod({ name: 'y', cpu: '3', memory: '0', nodeName: 'skewed' })],
  );
  const pod = makePod({ name: 'p', cpu: '1', memory: '1Gi' });

  it('least allocated: the share of cpu and memory left once the pod is placed', () => {
    // empty: 75/75; half: 25/25; skewed: cpu 0 left, memory (4Gi - 200Mi default - 1Gi) left.
    assert.deepEqual(scoresOf(leastAllocatedPlugin(), pod, ['empty', 'half', 'skewed'], snapshot), [75, 25, 35]);
  });

  it('balanced allocation: best when cpu and memory are used alike', () => {
    const [empty, half, skewed] = scoresOf(balancedAllocationPlugin(), pod, ['empty', 'half', 'skewed'], snapshot);
    assert.equal(empty, 100);
    assert.equal(half, 100);
    assert.ok(skewed! < 70, `skewed scored ${skewed}`);
  });
});

describe('sibling spreading', () => {
  it('scores nodes with fewer siblings higher, and ignores other workloads', () => {
    const snapshot = snapshotOf(
      ['n1', 'n2', 'n3'].map((name) => makeNode({ name })),
      [
        makePod({ name: 'a', owner: 'web', nodeName: 'n1' }),
        makePod({ name: 'b', owner: 'web', nodeName: 'n1' }),
        makePod({ name: 'c', owner: 'web', nodeName: 'n2' }),
        makePod({ name: 'd', owner: 'db', nodeName: 'n3' }),
        makePod({ name: 'e', owner: 'db', nodeName: 'n3' }),
      ],
    );
    assert.deepEqual(scoresOf(siblingSpread(), makePod({ name: 'p', owner: 'web' }), ['n1', 'n2', 'n3'], snapshot), [0, 50, 100]);
  });

  it('replicas without requests still spread over the nodes', () => {
    const snapshot = snapshotOf(['n1', 'n2', 'n3'].map((name) => makeNode({ name })));
    const scheduler = createScheduler({ random: seededRandom(7) });
    const counts = new Map<string, number>();
    for (let i = 0; i < 9; i++) {
      const result: ScheduleResult = scheduler.schedulePod(makePod({ name: `web-${i}`, owner: 'web' }), snapshot);
      if ('unschedulable' in result) assert.fail(result.message);
      counts.set(result.node, (counts.get(result.node) ?? 0) + 1);
    }
    assert.deepEqual([...counts.values()], [3, 3, 3]);
  });

  it('prefers a node without PreferNoSchedule taints when all else is equal', () => {
    const snapshot = snapshotOf([makeNode({ name: 'spot', taints: [{ key: 'spot', value: '', effect: 'PreferNoSchedule' }] }), makeNode({ name: 'regular' })]);
    const result = createScheduler({ random: seededRandom() }).schedulePod(makePod({ name: 'p' }), snapshot);
    assert.deepEqual(result, { node: 'regular', permit: 'allow' });
  });
});
