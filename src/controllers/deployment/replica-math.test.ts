import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { webDeployment, webReplicaSet } from '../../../test/support/controllers/deployment-builders.js';
import { maxSurge, maxUnavailable, newReplicaSetReplicas, proportionalSizes, resolveFenceposts, scaledValue } from './replica-math.js';
import { MAX_REPLICAS_ANNOTATION } from './types.js';

describe('rollout arithmetic', () => {
  it('rounds surge up and unavailability down, never both zero', () => {
    assert.equal(scaledValue('25%', 3, true), 1);
    assert.equal(scaledValue('25%', 3, false), 0);
    assert.equal(scaledValue(2, 3, false), 2);
    assert.deepEqual(resolveFenceposts('25%', '25%', 10), { surge: 3, unavailable: 2 });
    assert.deepEqual(resolveFenceposts('0%', '10%', 5), { surge: 0, unavailable: 1 });
    assert.deepEqual(resolveFenceposts(0, 0, 5), { surge: 0, unavailable: 1 });
    assert.equal(maxSurge(webDeployment(4)), 1);
    assert.equal(maxUnavailable(webDeployment(3)), 0);
    assert.equal(maxUnavailable(webDeployment(2, 0, 5)), 2, 'capped at replicas');
    assert.equal(maxSurge(webDeployment(4, 1, 1, { strategy: { type: 'Recreate' } })), 0);
    assert.equal(maxUnavailable(webDeployment(0)), 0);
  });

  it('grows the new set only within the surge', () => {
    const d = webDeployment(3, 1, 0);
    const old = webReplicaSet('old', 3, 1);
    const fresh = webReplicaSet('new', 0, 2);
    assert.equal(newReplicaSetReplicas(d, [old, fresh], fresh), 1);
    assert.equal(
      newReplicaSetReplicas(d, [webReplicaSet('old', 3, 1), webReplicaSet('new', 1, 2)], webReplicaSet('new', 1, 0)),
      1,
      'at the surge limit: no growth',
    );
    assert.equal(newReplicaSetReplicas(d, [webReplicaSet('old', 1, 0), webReplicaSet('new', 2, 0)], webReplicaSet('new', 2, 0)), 3);
    assert.equal(newReplicaSetReplicas(webDeployment(3, 1, 0, { strategy: { type: 'Recreate' } }), [old, fresh], fresh), 3);
  });

  it('spreads a size change over the sets of a rollout in proportion (the Kubernetes docs example)', () => {
    // 10 replicas, maxSurge 3, maxUnavailable 2, mid-rollout with 8 old and 5 new; scaled to 15.
    const d = webDeployment(15, 3, 2);
    const old = webReplicaSet('old', 8, 1, { annotations: { [MAX_REPLICAS_ANNOTATION]: '13' } });
    const fresh = webReplicaSet('new', 5, 2, { annotations: { [MAX_REPLICAS_ANNOTATION]: '13' } });
    const sizes = proportionalSizes(d, [old, fresh]);
    assert.equal(sizes.get(old), 11);
    assert.equal(sizes.get(fresh), 7);
  });

  it('takes replicas away in proportion too, leftovers from the largest set', () => {
    const d = webDeployment(5, 1, 1);
    const old = webReplicaSet('old', 6, 1, { annotations: { [MAX_REPLICAS_ANNOTATION]: '11' } });
    const fresh = webReplicaSet('new', 5, 2, { annotations: { [MAX_REPLICAS_ANNOTATION]: '11' } });
    const sizes = proportionalSizes(d, [old, fresh]);
    assert.equal((sizes.get(old) ?? 0) + (sizes.get(fresh) ?? 0), 6);
    assert.deepEqual([sizes.get(old), sizes.get(fresh)], [3, 3]);
  });

  it('scales everything to zero with the Deployment', () => {
    const d = webDeployment(0);
    const sizes = proportionalSizes(d, [webReplicaSet('a', 2, 1), webReplicaSet('b', 3, 2)]);
    assert.deepEqual([...sizes.values()], [0, 0]);
  });
});
