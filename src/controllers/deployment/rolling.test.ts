// What one rollout pass resizes, without a server. RollingUpdate: the new set within maxSurge
// first; failing that the old sets, their unavailable pods first, then down to replicas −
// maxUnavailable. Recreate: the old sets to zero, then nothing until their pods are gone, then
// the new set to the Deployment's size.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ReplicaSet } from '../replicaset/types.js';
import { planRecreate } from './recreate.js';
import { planRollingStep } from './rolling.js';
import type { Pod, PodPhase } from '../../api/core/index.js';
import { webDeployment, webReplicaSet } from '../../../test/support/controllers/deployment-builders.js';

const steps = (plan: ReturnType<typeof planRollingStep>) => plan.map((s) => `${s.which} ${s.rs.metadata.name} → ${s.to}`);

describe('a RollingUpdate pass', () => {
  it('grows the new set as far as maxSurge allows, and nothing else', () => {
    const plan = planRollingStep(webDeployment(4, 1, 0), webReplicaSet('new', 0, 2, { available: 0 }), [webReplicaSet('old', 4, 1, { available: 4 })]);
    assert.deepEqual(steps(plan), ['new new → 1']);
  });

  it('with the surge used up, shrinks an old set while replicas − maxUnavailable stay available', () => {
    const plan = planRollingStep(webDeployment(4, 1, 0), webReplicaSet('new', 1, 2, { available: 1 }), [webReplicaSet('old', 4, 1, { available: 4 })]);
    assert.deepEqual(steps(plan), ['old old → 3']);
    assert.deepEqual(planRollingStep(webDeployment(4, 1, 0), webReplicaSet('new', 1, 2, { available: 0 }), [webReplicaSet('old', 4, 1, { available: 4 })]), [], 'the new pod is not available yet');
  });

  it("removes an old set's unavailable pods first, then resizes it again down to the floor", () => {
    const plan = planRollingStep(webDeployment(4, 0, 2), webReplicaSet('new', 0, 2, { available: 0 }), [webReplicaSet('old', 4, 1, { available: 3 })]);
    assert.deepEqual(steps(plan), ['old old → 3', 'old old → 2']);
  });

  it('counts towards the floor only the active old sets and the new one', () => {
    // 'gone' is scaled to 0 but still reports 2 available pods: counting them would take 'old' to 0.
    const plan = planRollingStep(webDeployment(4, 0, 2), webReplicaSet('new', 0, 3, { available: 0 }), [webReplicaSet('gone', 0, 1, { available: 2 }), webReplicaSet('old', 4, 2, { available: 3 })]);
    assert.deepEqual(steps(plan), ['old old → 3', 'old old → 2']);
  });

  it('shrinks the oldest old sets first', () => {
    const plan = planRollingStep(webDeployment(4, 0, 1), webReplicaSet('new', 2, 3, { available: 2 }), [webReplicaSet('newer', 1, 2, { available: 1 }), webReplicaSet('oldest', 1, 1, { available: 1 })]);
    assert.deepEqual(steps(plan), ['old oldest → 0']);
  });
});

describe('a Recreate pass', () => {
  const recreate = webDeployment(3, 0, 1, { strategy: { type: 'Recreate' } });
  const pod = (phase: PodPhase): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [] }, status: { phase } });
  const noPods = () => [];

  it('scales every old set that still has replicas to zero first', () => {
    const plan = planRecreate(recreate, undefined, [webReplicaSet('a', 2, 1, { available: 2 }), webReplicaSet('b', 0, 2, { available: 0 }), webReplicaSet('c', 1, 3, { available: 0 })], noPods);
    assert.ok('scaleDown' in plan);
    assert.deepEqual(steps(plan.scaleDown), ['old a → 0', 'old c → 0']);
  });

  it('waits while an old set reports replicas or has a pod that has not finished, terminating ones included', () => {
    const stillCounted = { ...webReplicaSet('a', 0, 1, { available: 0 }), status: { replicas: 1 } };
    assert.deepEqual(planRecreate(recreate, undefined, [stillCounted], noPods), { waitForOldPods: true });
    const running = (set: Readonly<ReplicaSet>) => (set.metadata.name === 'a' ? [pod('Succeeded'), pod('Running')] : []);
    assert.deepEqual(planRecreate(recreate, undefined, [webReplicaSet('a', 0, 1, { available: 0 })], running), { waitForOldPods: true });
  });

  it('scales the new set up once the old pods have finished', () => {
    const finished = () => [pod('Succeeded'), pod('Failed')];
    assert.deepEqual(planRecreate(recreate, webReplicaSet('new', 0, 2, { available: 0 }), [webReplicaSet('a', 0, 1, { available: 0 })], finished), { scaleUp: 3 });
  });
});
