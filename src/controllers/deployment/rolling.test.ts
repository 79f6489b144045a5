// What one RollingUpdate pass resizes, without a server: the new set within maxSurge first;
// failing that the old sets, their unavailable pods first, then down to replicas − maxUnavailable.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ReplicaSet } from '../replicaset/types.js';
import { planRollingStep } from './rolling.js';
import type { Deployment, IntOrPercent } from './types.js';

function deployment(replicas: number, surge: IntOrPercent, unavailable: IntOrPercent): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', uid: 'd-1' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {},
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } },
    },
  };
}

function rs(name: string, replicas: number, available: number, minute: number): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, creationTimestamp: `2026-01-01T00:0${minute}:00Z` },
    spec: { replicas, selector: { matchLabels: { app: 'web' } } },
    status: { replicas, availableReplicas: available },
  };
}

const steps = (plan: ReturnType<typeof planRollingStep>) => plan.map((s) => `${s.which} ${s.rs.metadata.name} → ${s.to}`);

describe('a RollingUpdate pass', () => {
  it('grows the new set as far as maxSurge allows, and nothing else', () => {
    const plan = planRollingStep(deployment(4, 1, 0), rs('new', 0, 0, 2), [rs('old', 4, 4, 1)]);
    assert.deepEqual(steps(plan), ['new new → 1']);
  });

  it('with the surge used up, shrinks an old set while replicas − maxUnavailable stay available', () => {
    const plan = planRollingStep(deployment(4, 1, 0), rs('new', 1, 1, 2), [rs('old', 4, 4, 1)]);
    assert.deepEqual(steps(plan), ['old old → 3']);
    assert.deepEqual(planRollingStep(deployment(4, 1, 0), rs('new', 1, 0, 2), [rs('old', 4, 4, 1)]), [], 'the new pod is not available yet');
  });

  it("removes an old set's unavailable pods first, then resizes it again down to the floor", () => {
    const plan = planRollingStep(deployment(4, 0, 2), rs('new', 0, 0, 2), [rs('old', 4, 3, 1)]);
    assert.deepEqual(steps(plan), ['old old → 3', 'old old → 2']);
  });

  it('counts towards the floor only the active old sets and the new one', () => {
    // 'gone' is scaled to 0 but still reports 2 available pods: counting them would take 'old' to 0.
    const plan = planRollingStep(deployment(4, 0, 2), rs('new', 0, 0, 3), [rs('gone', 0, 2, 1), rs('old', 4, 3, 2)]);
    assert.deepEqual(steps(plan), ['old old → 3', 'old old → 2']);
  });

  it('shrinks the oldest old sets first', () => {
    const plan = planRollingStep(deployment(4, 0, 1), rs('new', 2, 2, 3), [rs('newer', 1, 1, 2), rs('oldest', 1, 1, 1)]);
    assert.deepEqual(steps(plan), ['old oldest → 0']);
  });
});
