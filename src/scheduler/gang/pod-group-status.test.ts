import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { makePod } from '../../../test/support/scheduler/builders.js';
import { desiredStatus, sameStatus } from './pod-group-status.js';
import { makePodGroup } from '../../../test/support/scheduler/gang-harness.js';

const NOW = new Date('2026-02-01T10:00:00Z');

function member(i: number, phase: string, nodeName?: string): KubeObject {
  return makePod({ name: `m${i}`, phase, ...(nodeName ? { nodeName } : {}) });
}

describe('PodGroup status', () => {
  const group = makePodGroup('j', { minMember: 2 });
  group.metadata.ownerReferences = [{ apiVersion: 'kubeflow.org/v1', kind: 'PyTorchJob', name: 'train', uid: 'u1', controller: true }];

  it('goes Pending → Scheduling → Scheduled → Running → Finished with the member counts', () => {
    assert.equal(desiredStatus(group, [member(0, 'Pending'), member(1, 'Pending')], undefined, 0, NOW).phase, 'Pending');
    assert.equal(desiredStatus(group, [member(0, 'Pending'), member(1, 'Pending')], { boundSinceQuorum: 0 }, 1, NOW).phase, 'Scheduling');
    const scheduled = desiredStatus(group, [member(0, 'Pending', 'n1'), member(1, 'Pending', 'n2')], undefined, 0, NOW);
    assert.deepEqual(scheduled, { phase: 'Scheduled', scheduled: 2, running: 0, succeeded: 0, failed: 0, occupiedBy: 'default/train' });
    assert.equal(desiredStatus(group, [member(0, 'Running', 'n1'), member(1, 'Running', 'n2')], undefined, 0, NOW).phase, 'Running');
    const done = desiredStatus(group, [member(0, 'Succeeded', 'n1'), member(1, 'Succeeded', 'n2')], undefined, 0, NOW);
    assert.equal(done.phase, 'Finished');
    assert.equal(done.succeeded, 2);
    assert.equal(desiredStatus(group, [member(0, 'Succeeded', 'n1'), member(1, 'Failed', 'n2')], undefined, 0, NOW).phase, 'Failed');
  });

  it('says why a group waits, and fails a group that can never fit', () => {
    const waiting = desiredStatus(
      group,
      [member(0, 'Pending')],
      { boundSinceQuorum: 0, firstAttempt: NOW.getTime(), waiting: { reason: 'NotEnoughMembers', message: 'pod group default/j: 1/2 members exist' } },
      0,
      NOW,
    );
    assert.equal(waiting.phase, 'Pending');
    assert.equal(waiting.scheduleStartTime, '2026-02-01T10:00:00Z');
    assert.deepEqual(waiting.conditions, [
      {
        type: 'Unschedulable',
        status: 'True',
        reason: 'NotEnoughMembers',
        message: 'pod group default/j: 1/2 members exist',
        lastTransitionTime: '2026-02-01T10:00:00Z',
      },
    ]);
    const message = 'pod group default/j needs example.com/gpu 12, the cluster has 8 allocatable';
    const failed = desiredStatus(
      group,
      [member(0, 'Pending'), member(1, 'Pending')],
      { boundSinceQuorum: 0, failed: message, waiting: { reason: 'NotEnoughResources', message } },
      0,
      NOW,
    );
    assert.equal(failed.phase, 'Failed');
    assert.equal(failed.conditions?.[0]?.reason, 'NotEnoughResources');
  });

  it('is not written again when nothing changed', () => {
    const desired = desiredStatus(group, [member(0, 'Running', 'n1'), member(1, 'Running', 'n2')], undefined, 0, NOW);
    assert.equal(sameStatus(group, desired), false);
    assert.equal(sameStatus({ ...group, status: JSON.parse(JSON.stringify(desired)) }, desired), true);
  });
});
