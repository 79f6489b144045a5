import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ReplicaSet } from '../replicaset/types.js';
import { maxSurge, maxUnavailable, newReplicaSetReplicas, proportionalSizes, resolveFenceposts, scaledValue } from './replica-math.js';
import { MAX_REPLICAS_ANNOTATION, type Deployment, type IntOrPercent } from './types.js';

function deployment(
  replicas: number,
  surge: IntOrPercent = '25%',
  unavailable: IntOrPercent = '25%',
  type: 'RollingUpdate' | 'Recreate' = 'RollingUpdate',
): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {},
      strategy: type === 'Recreate' ? { type } : { type, rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } },
    },
  };
}

function rs(name: string, replicas: number, created: string, annotations: Record<string, string> = {}): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, creationTimestamp: created, annotations },
    spec: { replicas, selector: { matchLabels: { app: 'web' } } },
  };
}

describe('rollout arithmetic', () => {
  it('rounds surge up and unavailability down, never both zero', () => {
    assert.equal(scaledValue('25%', 3, true), 1);
    assert.equal(scaledValue('25%', 3, false), 0);
    assert.equal(scaledValue(2, 3, false), 2);
    assert.deepEqual(resolveFenceposts('25%', '25%', 10), { surge: 3, unavailable: 2 });
    assert.deepEqual(resolveFenceposts('0%', '10%', 5), { surge: 0, unavailable: 1 });
    assert.deepEqual(resolveFenceposts(0, 0, 5), { surge: 0, unavailable: 1 });
    assert.equal(maxSurge(deployment(4)), 1);
    assert.equal(maxUnavailable(deployment(3)), 0);
    assert.equal(maxUnavailable(deployment(2, 0, 5)), 2, 'capped at replicas');
    assert.equal(maxSurge(deployment(4, 1, 1, 'Recreate')), 0);
    assert.equal(maxUnavailable(deployment(0)), 0);
  });

  it('grows the new set only within the surge', () => {
    const d = deployment(3, 1, 0);
    const old = rs('old', 3, '2024-01-01T00:00:00Z');
    const fresh = rs('new', 0, '2024-01-02T00:00:00Z');
    assert.equal(newReplicaSetReplicas(d, [old, fresh], fresh), 1);
    assert.equal(
      newReplicaSetReplicas(d, [rs('old', 3, '2024-01-01T00:00:00Z'), rs('new', 1, '2024-01-02T00:00:00Z')], rs('new', 1, '')),
      1,
      'at the surge limit: no growth',
    );
    assert.equal(newReplicaSetReplicas(d, [rs('old', 1, ''), rs('new', 2, '')], rs('new', 2, '')), 3);
    assert.equal(newReplicaSetReplicas(deployment(3, 1, 0, 'Recreate'), [old, fresh], fresh), 3);
  });

  it('spreads a size change over the sets of a rollout in proportion (the Kubernetes docs example)', () => {
    // 10 replicas, maxSurge 3, maxUnavailable 2, mid-rollout with 8 old and 5 new; scaled to 15.
    const d = deployment(15, 3, 2);
    const old = rs('old', 8, '2024-01-01T00:00:00Z', { [MAX_REPLICAS_ANNOTATION]: '13' });
    const fresh = rs('new', 5, '2024-01-02T00:00:00Z', { [MAX_REPLICAS_ANNOTATION]: '13' });
    const sizes = proportionalSizes(d, [old, fresh]);
    assert.equal(sizes.get(old), 11);
    assert.equal(sizes.get(fresh), 7);
  });

  it('takes replicas away in proportion too, leftovers from the largest set', () => {
    const d = deployment(5, 1, 1);
    const old = rs('old', 6, '2024-01-01T00:00:00Z', { [MAX_REPLICAS_ANNOTATION]: '11' });
    const fresh = rs('new', 5, '2024-01-02T00:00:00Z', { [MAX_REPLICAS_ANNOTATION]: '11' });
    const sizes = proportionalSizes(d, [old, fresh]);
    assert.equal((sizes.get(old) ?? 0) + (sizes.get(fresh) ?? 0), 6);
    assert.deepEqual([sizes.get(old), sizes.get(fresh)], [3, 3]);
  });

  it('scales everything to zero with the Deployment', () => {
    const d = deployment(0);
    const sizes = proportionalSizes(d, [rs('a', 2, '2024-01-01T00:00:00Z'), rs('b', 3, '2024-01-02T00:00:00Z')]);
    assert.deepEqual([...sizes.values()], [0, 0]);
  });
});
