import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CPU_INITIALIZATION_PERIOD_MS, groupPods, resourceReplicas, type PodFacts, type PodFigure } from './replica-calculator.js';

const NOW = 10 * 60_000;
/** A Running pod, Ready and started long ago, requesting 100m. */
const pod = (name: string, extra: Partial<PodFacts> = {}): PodFacts => ({
  name,
  phase: 'Running',
  deleting: false,
  ready: { status: 'True', lastTransition: 0 },
  startTime: 0,
  request: 100,
  ...extra,
});
const figures = (entries: Record<string, number>) =>
  new Map<string, PodFigure>(Object.entries(entries).map(([name, value]) => [name, { value, timestamp: NOW - 1000, windowMs: 15_000 }]));

describe('HPA replica calculator', () => {
  it('scales by the ratio of utilization to target over the ready pods, rounding up', () => {
    // 2 pods at 90m of 100m = 90 %, target 50 %: ratio 1.8 → ceil(3.6) = 4.
    const proposal = resourceReplicas(2, [pod('a'), pod('b')], figures({ a: 90, b: 90 }), { utilization: 50 }, true, NOW);
    assert.deepEqual(proposal, { replicas: 4, utilization: 90, average: 90 });
  });

  it('stays within the 10 % tolerance', () => {
    assert.equal(resourceReplicas(3, [pod('a'), pod('b'), pod('c')], figures({ a: 54, b: 54, c: 54 }), { utilization: 50 }, true, NOW).replicas, 3);
    assert.equal(resourceReplicas(3, [pod('a'), pod('b'), pod('c')], figures({ a: 56, b: 56, c: 56 }), { utilization: 50 }, true, NOW).replicas, 4);
  });

  it('scales down by average value', () => {
    const proposal = resourceReplicas(
      4,
      ['a', 'b', 'c', 'd'].map((n) => pod(n)),
      figures({ a: 10, b: 10, c: 10, d: 10 }),
      { averageValue: 20 },
      true,
      NOW,
    );
    assert.equal(proposal.replicas, 2);
  });

  it('a missing pod counts as at its target on scale-down, which may hold the scale', () => {
    // Without b: 10 % against 50 % would be one pod; with b at 100 %: (10+100)/200 = 55 % → within tolerance of... 1.1 → holds at 2.
    const proposal = resourceReplicas(2, [pod('a'), pod('b')], figures({ a: 10 }), { utilization: 50 }, true, NOW);
    assert.equal(proposal.replicas, 2);
  });

  it('a missing pod counts as 0 on scale-up', () => {
    // a at 200 %: ratio 4; with b at 0: 100 % → ratio 2 → ceil(2 × 2) = 4.
    assert.equal(resourceReplicas(2, [pod('a'), pod('b')], figures({ a: 200 }), { utilization: 50 }, true, NOW).replicas, 4);
  });

  it('unready pods count as 0 when scaling up, and a young pod measured before it was Ready is unready', () => {
    const young = pod('b', { startTime: NOW - 20_000, ready: { status: 'True', lastTransition: NOW - 5_000 } });
    const grouping = groupPods([pod('a'), young], figures({ a: 100, b: 100 }), true, NOW);
    assert.deepEqual([...grouping.unready], ['b']);
    // a alone: 100 % vs 50 % → ratio 2; with b at 0: 100/200 = 50 % → ratio 1 → hold.
    assert.equal(resourceReplicas(2, [pod('a'), young], figures({ a: 100, b: 100 }), { utilization: 50 }, true, NOW).replicas, 2);
    assert.equal(groupPods([pod('b', { startTime: NOW - CPU_INITIALIZATION_PERIOD_MS - 1 })], figures({ b: 1 }), true, NOW).readyCount, 1);
  });

  it('ignores deleted and failed pods; Pending ones are unready', () => {
    const grouping = groupPods([pod('a', { deleting: true }), pod('b', { phase: 'Failed' }), pod('c', { phase: 'Pending' })], figures({}), true, NOW);
    assert.deepEqual([[...grouping.ignored], [...grouping.unready]], [['a', 'b'], ['c']]);
  });

  it('refuses without pods, figures or requests', () => {
    assert.throws(() => resourceReplicas(1, [], figures({}), { utilization: 50 }, true, NOW), /no pods returned by selector/);
    assert.throws(() => resourceReplicas(1, [pod('a')], figures({}), { utilization: 50 }, true, NOW), /did not receive metrics/);
    assert.throws(() => resourceReplicas(1, [pod('a', { request: undefined })], figures({ a: 5 }), { utilization: 50 }, true, NOW), /missing request/);
  });
});
