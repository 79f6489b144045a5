import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPodAvailable, isPodReady, msUntilNextAvailable, msUntilPodAvailable, podCondition, podReadySince, type PodWithStatus } from './pod-conditions.js';
import type { PodCondition } from './pod.js';

const withConditions = (...conditions: PodCondition[]): PodWithStatus => ({ status: { conditions } });
const readySince = (at: string): PodWithStatus => withConditions({ type: 'Ready', status: 'True', lastTransitionTime: at });
const T0 = Date.parse('2024-01-01T00:00:00Z');

describe('pod conditions', () => {
  it('reads Ready only from a Ready condition with status True', () => {
    assert.equal(isPodReady({}), false, 'no status');
    assert.equal(isPodReady(withConditions()), false, 'no conditions');
    assert.equal(isPodReady(withConditions({ type: 'Ready', status: 'False' })), false);
    assert.equal(isPodReady(withConditions({ type: 'Ready', status: 'Unknown' })), false);
    assert.equal(isPodReady(withConditions({ type: 'ContainersReady', status: 'True' })), false, 'another condition is not Ready');
    assert.equal(isPodReady(withConditions({ type: 'PodScheduled', status: 'True' }, { type: 'Ready', status: 'True' })), true);
    assert.equal(podCondition(withConditions({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }), 'PodScheduled')?.reason, 'Unschedulable');
  });

  it('knows since when a pod is Ready, and nothing for a pod that is not or an unknown time', () => {
    assert.equal(podReadySince(readySince('2024-01-01T00:00:00Z')), T0);
    assert.equal(podReadySince(withConditions({ type: 'Ready', status: 'False', lastTransitionTime: '2024-01-01T00:00:00Z' })), undefined);
    assert.equal(podReadySince(withConditions({ type: 'Ready', status: 'True' })), undefined);
  });

  it('counts a pod available after minReadySeconds of being Ready (podutil.IsPodAvailable)', () => {
    const pod = readySince('2024-01-01T00:00:00Z');
    assert.equal(isPodAvailable(pod, 0, T0), true, 'no minReadySeconds: Ready is available');
    assert.equal(isPodAvailable(pod, 10, T0 + 9_999), false);
    assert.equal(isPodAvailable(pod, 10, T0 + 10_000), true);
    assert.equal(isPodAvailable(withConditions({ type: 'Ready', status: 'True' }), 10, T0), false, 'unknown transition time: not yet available');
    assert.equal(isPodAvailable(withConditions({ type: 'Ready', status: 'True' }), 0, T0), true);
    assert.equal(isPodAvailable(withConditions({ type: 'Ready', status: 'False' }), 0, T0), false);
  });

  it('says how long until a Ready pod becomes available, and the soonest of many', () => {
    const early = readySince('2024-01-01T00:00:00Z');
    const late = readySince('2024-01-01T00:00:04Z');
    assert.equal(msUntilPodAvailable(early, 10, T0 + 3_000), 7_000);
    assert.equal(msUntilPodAvailable(early, 10, T0 + 10_000), undefined, 'already available');
    assert.equal(msUntilPodAvailable(early, 0, T0), undefined, 'no minReadySeconds: nothing to wait for');
    assert.equal(msUntilPodAvailable(withConditions(), 10, T0), undefined, 'not Ready');
    assert.equal(msUntilNextAvailable([late, early, withConditions()], 10, T0 + 3_000), 7_000);
    assert.equal(msUntilNextAvailable([late, early], 10, T0 + 12_000), 2_000, 'the available one no longer counts');
    assert.equal(msUntilNextAvailable([], 10, T0), undefined);
  });
});
