import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../meta.js';
import { countHealthy, DELETION_TIMEOUT_MS, desiredHealth, disruptionAllowedCondition, disruptionsAllowed, pendingDisruptions, scaledValue } from './budget.js';

const noController = () => assert.fail('an integer minAvailable counts the selected pods, not the controllers');

function pod(name: string, options: { ready?: boolean; deleting?: boolean } = {}): KubeObject {
  const metadata: KubeObject['metadata'] = { name, namespace: 'default' };
  if (options.deleting) metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
  return { apiVersion: 'v1', kind: 'Pod', metadata, status: { conditions: [{ type: 'Ready', status: options.ready === false ? 'False' : 'True' }] } };
}

describe('disruption budget arithmetic', () => {
  it('scales integers as they are and percentages of the total rounded up', () => {
    assert.equal(scaledValue(2, 10), 2);
    assert.equal(scaledValue('50%', 3), 2);
    assert.equal(scaledValue('10%', 5), 1);
    assert.equal(scaledValue('0%', 5), 0);
    assert.equal(scaledValue('100%', 7), 7);
    assert.throws(() => scaledValue('half', 4), /invalid value/);
  });

  it('an integer minAvailable expects the selected pods', () => {
    assert.deepEqual(desiredHealth({ minAvailable: 1 }, 2, noController), { expectedPods: 2, desiredHealthy: 1 });
    assert.deepEqual(desiredHealth({ minAvailable: 5 }, 2, noController), { expectedPods: 2, desiredHealthy: 5 });
  });

  it("a percentage minAvailable and any maxUnavailable expect the controllers' scale", () => {
    assert.deepEqual(
      desiredHealth({ minAvailable: '50%' }, 2, () => 3),
      { expectedPods: 3, desiredHealthy: 2 },
    );
    // maxUnavailable rounds up as well: 50% of 3 may be unavailable = 2, so 1 must stay.
    assert.deepEqual(
      desiredHealth({ maxUnavailable: '50%' }, 3, () => 3),
      { expectedPods: 3, desiredHealthy: 1 },
    );
    assert.deepEqual(
      desiredHealth({ maxUnavailable: 1 }, 1, () => 4),
      { expectedPods: 4, desiredHealthy: 3 },
    );
    assert.deepEqual(
      desiredHealth({ maxUnavailable: 5 }, 2, () => 2),
      { expectedPods: 2, desiredHealthy: 0 },
    );
    assert.deepEqual(desiredHealth({}, 2, noController), { expectedPods: 0, desiredHealthy: 0 });
    assert.throws(
      () =>
        desiredHealth({ maxUnavailable: 1 }, 1, () => {
          throw new Error('found no controllers for pod "x"');
        }),
      /no controllers/,
    );
  });

  it('allows what is healthy beyond the desired, never below zero, nothing when no pod is expected', () => {
    assert.equal(disruptionsAllowed(3, 1, 3), 2);
    assert.equal(disruptionsAllowed(1, 2, 3), 0);
    assert.equal(disruptionsAllowed(2, 0, 0), 0);
  });

  it('counts ready pods, not those being deleted or just evicted', () => {
    const now = Date.parse('2026-01-01T00:10:00Z');
    const pods = [pod('a'), pod('b', { ready: false }), pod('c', { deleting: true }), pod('d'), pod('e')];
    const evicted = { d: '2026-01-01T00:09:30Z', e: new Date(now - DELETION_TIMEOUT_MS - 1000).toISOString() };
    assert.equal(countHealthy(pods, evicted, now), 2, 'a, and e whose eviction expired');
  });

  it('keeps evictions pending for two minutes, and says when the first expires', () => {
    const now = Date.parse('2026-01-01T00:10:00Z');
    const pods = [pod('a'), pod('b'), pod('c', { deleting: true })];
    const disrupted = { a: '2026-01-01T00:09:30Z', b: '2026-01-01T00:07:00Z', c: '2026-01-01T00:09:59Z', gone: '2026-01-01T00:09:59Z' };
    const { pending, recheckAt, overdue } = pendingDisruptions(pods, disrupted, now);
    assert.deepEqual(pending, { a: '2026-01-01T00:09:30Z' });
    assert.equal(recheckAt, Date.parse('2026-01-01T00:11:30Z'));
    assert.deepEqual(overdue, ['b']);
  });

  it('sets DisruptionAllowed, moving the transition time only when the status changes', () => {
    const base = { currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 };
    const [allowed] = disruptionAllowedCondition({ ...base, disruptionsAllowed: 1 }, 't1');
    assert.deepEqual(allowed, { type: 'DisruptionAllowed', status: 'True', lastTransitionTime: 't1', reason: 'SufficientPods', message: '' });
    const [same] = disruptionAllowedCondition({ ...base, disruptionsAllowed: 2, conditions: [allowed!] }, 't2');
    assert.equal(same!.lastTransitionTime, 't1');
    const [refused] = disruptionAllowedCondition({ ...base, disruptionsAllowed: 0, conditions: [allowed!] }, 't3');
    assert.deepEqual([refused!.status, refused!.reason, refused!.lastTransitionTime], ['False', 'InsufficientPods', 't3']);
  });
});
