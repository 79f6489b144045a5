// The pod start stages' bookkeeping: first moment wins, the oldest pods go past the capacity,
// the agent's marks skip pods already running, and records of several threads merge per pod.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mergePodStartRecords, PodStartStages, preciseNow } from './pod-start-stages.js';

const pod = (uid: string, phase?: string) => ({ metadata: { uid, name: `pod-${uid}`, namespace: 'default' }, status: phase ? { phase } : undefined });

describe('pod start stages', () => {
  test('a stage keeps the moment it was first reached; a pod without a uid is not recorded', () => {
    const stages = new PodStartStages();
    stages.mark(pod('a'), 'apiWritten', 10);
    stages.mark(pod('a'), 'apiWritten', 20);
    stages.mark(pod('a'), 'schedulerSeen', 30);
    stages.mark({ metadata: { name: 'no-uid' } }, 'apiWritten', 5);
    assert.deepEqual(stages.list(), [{ uid: 'a', name: 'pod-a', namespace: 'default', at: { apiWritten: 10, schedulerSeen: 30 } }]);
  });

  test('past its capacity the oldest pod is dropped', () => {
    const stages = new PodStartStages(2);
    for (const uid of ['a', 'b', 'c']) stages.mark(pod(uid), 'apiWritten', 1);
    assert.deepEqual(
      stages.list().map((r) => r.uid),
      ['b', 'c'],
    );
  });

  test("the agent's marks count only for a pod not yet running", () => {
    const stages = new PodStartStages();
    stages.markIfStarting(pod('new'), 'agentSeen');
    stages.markIfStarting(pod('pending', 'Pending'), 'agentSeen');
    stages.markIfStarting(pod('running', 'Running'), 'agentSeen');
    stages.markIfStarting(pod('done', 'Succeeded'), 'agentSeen');
    assert.deepEqual(
      stages
        .list()
        .map((r) => r.uid)
        .sort(),
      ['new', 'pending'],
    );
  });

  test('a stage of a pod whose start is not followed (a status write to a pod running for long) is not recorded', () => {
    const stages = new PodStartStages();
    stages.mark(pod('a'), 'apiWritten', 1);
    stages.markKnown(pod('a'), 'runningWritten');
    stages.markKnown(pod('b'), 'runningWritten');
    assert.deepEqual(
      stages.list().map((r) => [r.uid, Object.keys(r.at)]),
      [['a', ['apiWritten', 'runningWritten']]],
    );
  });

  test("threads' records merge per pod, the earliest moment of a stage kept", () => {
    const merged = mergePodStartRecords([
      [{ uid: 'a', name: 'pod-a', namespace: 'default', at: { apiWritten: 10, bindWritten: 40 } }],
      [
        { uid: 'a', name: '', namespace: '', at: { schedulerSeen: 20, bindWritten: 35 } },
        { uid: 'b', name: 'pod-b', namespace: 'default', at: { schedulerSeen: 50 } },
      ],
    ]);
    assert.deepEqual(merged, [
      { uid: 'a', name: 'pod-a', namespace: 'default', at: { apiWritten: 10, schedulerSeen: 20, bindWritten: 35 } },
      { uid: 'b', name: 'pod-b', namespace: 'default', at: { schedulerSeen: 50 } },
    ]);
  });

  test('the clock reads the wall clock, to within a millisecond', () => {
    for (let i = 0; i < 1000; i++) {
      const before = Date.now();
      const at = preciseNow();
      const after = Date.now();
      assert.ok(at >= before - 1 && at < after + 1, `${at} between ${before} and ${after}`);
    }
  });
});
