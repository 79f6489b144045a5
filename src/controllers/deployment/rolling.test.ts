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

const deployment = webDeployment;
/** A set of `web` with `available` of its replicas available, created at minute `minute`. */
const rs = (name: string, replicas: number, available: number, minute: number) => webReplicaSet(name, replicas, minute, { available });

const steps = (plan: ReturnType<typeof planRollingStep>) => plan.map((s) => `${s.rs.metadata.name} → ${s.to}`);

describe('a RollingUpdate pass', () => {
  it('grows the new set as far as maxSurge allows, and nothing else', () => {
    const plan = planRollingStep(deployment(4, 1, 0), rs('new', 0, 0, 2), [rs('old', 4, 4, 1)]);
    assert.deepEqual(steps(plan), ['new → 1']);
  });

  it('with the surge used up, shrinks an old set while replicas − maxUnavailable stay available', () => {
    const plan = planRollingStep(deployment(4, 1, 0), rs('new', 1, 1, 2), [rs('old', 4, 4, 1)]);
    assert.deepEqual(steps(plan), ['old → 3']);
    assert.deepEqual(planRollingStep(deployment(4, 1, 0), rs('new', 1, 0, 2), [rs('old', 4, 4, 1)]), [], 'the new pod is not available yet');
  });

  it("removes an old set's unavailable pods first, then resizes it again down to the floor", () => {
    const plan = planRollingStep(deployment(4, 0, 2), rs('new', 0, 0, 2), [rs('old', 4, 3, 1)]);
    assert.deepEqual(steps(plan), ['old → 3', 'old → 2']);
  });

  it('counts towards the floor only the active old sets and the new one', () => {
    // 'gone' is scaled to 0 but still reports 2 available pods: counting them would take 'old' to 0.
    const plan = planRollingStep(deployment(4, 0, 2), rs('new', 0, 0, 3), [rs('gone', 0, 2, 1), rs('old', 4, 3, 2)]);
    assert.deepEqual(steps(plan), ['old → 3', 'old → 2']);
  });

  it('shrinks the oldest old sets first', () => {
    const plan = planRollingStep(deployment(4, 0, 1), rs('new', 2, 2, 3), [rs('newer', 1, 1, 2), rs('oldest', 1, 1, 1)]);
    assert.deepEqual(steps(plan), ['oldest → 0']);
  });
});

describe('a Recreate pass', () => {
  const recreate = deployment(3, 0, 1, { strategy: { type: 'Recreate' } });
  const pod = (phase: PodPhase): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [] }, status: { phase } });
  const noPods = () => [];

  it('scales every old set that still has replicas to zero first', () => {
    const plan = planRecreate(recreate, undefined, [rs('a', 2, 2, 1), rs('b', 0, 0, 2), rs('c', 1, 0, 3)], noPods);
    assert.ok('scaleDown' in plan);
    assert.deepEqual(steps(plan.scaleDown), ['a → 0', 'c → 0']);
  });

  it('waits while an old set reports replicas or has a pod that has not finished, terminating ones included', () => {
    const stillCounted = { ...rs('a', 0, 0, 1), status: { replicas: 1 } };
    assert.deepEqual(planRecreate(recreate, undefined, [stillCounted], noPods), { waitForOldPods: true });
    const running = (set: Readonly<ReplicaSet>) => (set.metadata.name === 'a' ? [pod('Succeeded'), pod('Running')] : []);
    assert.deepEqual(planRecreate(recreate, undefined, [rs('a', 0, 0, 1)], running), { waitForOldPods: true });
  });

  it('scales the new set up once the old pods have finished', () => {
    const finished = () => [pod('Succeeded'), pod('Failed')];
    assert.deepEqual(planRecreate(recreate, rs('new', 0, 0, 2), [rs('a', 0, 0, 1)], finished), { scaleUp: 3 });
  });
});
