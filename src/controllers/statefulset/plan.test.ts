import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planStatefulSet, type Action, type PlanInput } from './plan.js';
import { REVISION_LABEL } from './types.js';
import type { Pod } from '../../api/core/index.js';

type State = 'ready' | 'pending' | 'failed' | 'terminating';

function pod(ordinal: number, state: State = 'ready', revision = 'web-new'): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `web-${ordinal}`,
      labels: { [REVISION_LABEL]: revision },
      ...(state === 'terminating' ? { deletionTimestamp: '2025-01-01T00:00:00Z' } : {}),
    },
    spec: { containers: [] },
    status: {
      phase: state === 'failed' ? 'Failed' : state === 'pending' ? 'Pending' : 'Running',
      conditions: [{ type: 'Ready', status: state === 'ready' || state === 'terminating' ? 'True' : 'False' }],
    },
  };
}

function plan(pods: Pod[], overrides: Partial<PlanInput> = {}): string[] {
  const input: PlanInput = {
    start: 0,
    replicas: 3,
    parallel: false,
    onDelete: false,
    partition: 0,
    pods,
    updateRevision: 'web-new',
    minReadySeconds: 0,
    now: Date.now(),
    ...overrides,
  };
  return planStatefulSet(input).map((a: Action) => (a.type === 'create' ? `create ${a.ordinal} ${a.revision}` : `delete ${a.pod.metadata.name} ${a.reason}`));
}

describe('stateful set plan', () => {
  it('OrderedReady creates one ordinal at a time, each only after the lower ones are Running and Ready', () => {
    assert.deepEqual(plan([]), ['create 0 update']);
    assert.deepEqual(plan([pod(0, 'pending')]), [], 'waits for web-0');
    assert.deepEqual(plan([pod(0)]), ['create 1 update']);
    assert.deepEqual(plan([pod(0), pod(1)]), ['create 2 update']);
    assert.deepEqual(plan([pod(0), pod(1), pod(2)]), []);
    assert.deepEqual(plan([], { start: 5 }), ['create 5 update'], 'ordinals.start');
    assert.deepEqual(plan([pod(5)], { start: 5 }), ['create 6 update']);
  });

  it('Parallel creates every missing ordinal at once and does not wait', () => {
    assert.deepEqual(plan([]), ['create 0 update']);
    assert.deepEqual(plan([], { parallel: true }), ['create 0 update', 'create 1 update', 'create 2 update']);
    assert.deepEqual(plan([pod(1, 'pending')], { parallel: true }), ['create 0 update', 'create 2 update']);
  });

  it('deletes a failed pod, and recreates its ordinal once it is gone', () => {
    assert.deepEqual(plan([pod(0), pod(1, 'failed'), pod(2)]), ['delete web-1 failed']);
    assert.deepEqual(plan([pod(0), pod(1, 'terminating'), pod(2)]), [], 'waits for the old pod to go');
    assert.deepEqual(plan([pod(0), pod(2)]), ['create 1 update'], 'the same name again');
  });

  it('scales down from the highest ordinal, one at a time, waiting for each to terminate', () => {
    const all = [pod(0), pod(1), pod(2)];
    assert.deepEqual(plan(all, { replicas: 1 }), ['delete web-2 condemned']);
    assert.deepEqual(plan([pod(0), pod(1), pod(2, 'terminating')], { replicas: 1 }), []);
    assert.deepEqual(plan([pod(0), pod(1)], { replicas: 1 }), ['delete web-1 condemned']);
    assert.deepEqual(plan(all, { replicas: 1, parallel: true }), ['delete web-2 condemned', 'delete web-1 condemned']);
    // An unhealthy replica blocks an ordered scale-down; the highest unhealthy condemned pod may go.
    assert.deepEqual(plan([pod(0, 'pending'), pod(1), pod(2)], { replicas: 1 }), []);
    assert.deepEqual(plan([pod(0), pod(1, 'pending'), pod(2, 'pending')], { replicas: 1 }), ['delete web-2 condemned']);
    assert.deepEqual(plan([pod(0), pod(1, 'pending'), pod(2)], { replicas: 1 }), ['delete web-2 condemned']);
  });

  it('rolls an update from the highest ordinal down to the partition, one healthy pod at a time', () => {
    const old = [pod(0, 'ready', 'web-old'), pod(1, 'ready', 'web-old'), pod(2, 'ready', 'web-old')];
    assert.deepEqual(plan(old), ['delete web-2 update']);
    assert.deepEqual(plan([old[0]!, old[1]!, pod(2, 'pending')]), [], 'waits for the new web-2');
    assert.deepEqual(plan([old[0]!, old[1]!, pod(2)]), ['delete web-1 update']);
    assert.deepEqual(plan([old[0]!, old[1]!, pod(2)], { partition: 1 }), ['delete web-1 update']);
    assert.deepEqual(plan([old[0]!, pod(1), pod(2)], { partition: 1 }), [], 'ordinal 0 is below the partition');
    // A pod below the partition is recreated at the current revision.
    assert.deepEqual(plan([pod(1), pod(2)], { partition: 1 }), ['create 0 current']);
    assert.deepEqual(plan(old, { onDelete: true }), [], 'OnDelete updates nothing by itself');
    assert.deepEqual(plan([old[0]!, old[1]!], { onDelete: true }), ['create 2 update'], 'a deleted pod comes back at the update revision');
  });
});
