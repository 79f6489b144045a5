// The two decisions of a Deployment pass outside the rollout strategies, without a server:
// how a scaling pass resizes the sets (Kubernetes' sync.go scale(): one active set takes the
// size, a saturated new set lets the old ones go, several active sets share the change in
// proportion), and the new ReplicaSet (found, brought up to date, or built with its name from
// the pod-template-hash, which a collision moves on).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ReplicaSet } from '../replicaset/types.js';
import { podTemplateHash } from './hash.js';
import { isOwnNewReplicaSet, planNewReplicaSet } from './new-replicaset.js';
import { planScale } from './scale-plan.js';
import { DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, POD_TEMPLATE_HASH_LABEL, REVISION_ANNOTATION, REVISION_HISTORY_ANNOTATION } from './types.js';
import { webDeployment, webReplicaSet } from '../../../test/support/controllers/deployment-builders.js';

const deployment = webDeployment;

/** A set of `web`, last scaled for `scaledFor` replicas with `max` at most. */
function rs(
  name: string,
  replicas: number,
  minute: number,
  options: { available?: number; scaledFor?: number; max?: number; image?: string } = {},
): ReplicaSet {
  const annotations: Record<string, string> = {};
  if (options.scaledFor !== undefined) annotations[DESIRED_REPLICAS_ANNOTATION] = String(options.scaledFor);
  if (options.max !== undefined) annotations[MAX_REPLICAS_ANNOTATION] = String(options.max);
  return webReplicaSet(name, replicas, minute, { ...options, annotations });
}

const sizes = (steps: ReturnType<typeof planScale>) => steps.map((s) => `${s.rs.metadata.name} → ${s.to}`);

describe('a scaling pass', () => {
  it('shares a scale-up mid-rollout in proportion to the sets (the Kubernetes docs example: 10 → 15, maxSurge 3)', () => {
    // Scaled for 10 (at most 13): 8 old and 5 new replicas. At 15 the sets may hold 18 in all.
    const old = rs('old', 8, 1, { scaledFor: 10, max: 13 });
    const fresh = rs('new', 5, 2, { scaledFor: 10, max: 13, available: 0 });
    assert.deepEqual(sizes(planScale(deployment(15, 3, 2), fresh, [old])), ['old → 11', 'new → 7']);
  });

  it('gives what rounding leaves over to the largest set', () => {
    // 9 → 10 replicas, no surge: each set's exact share (4.4, 3.3, 2.2) rounds to its size; the one left goes to the largest.
    const sets = [rs('a', 4, 1, { scaledFor: 9, max: 9 }), rs('b', 3, 2, { scaledFor: 9, max: 9 })];
    const fresh = rs('c', 2, 3, { scaledFor: 9, max: 9, available: 0 });
    assert.deepEqual(sizes(planScale(deployment(10, 0, 1), fresh, sets)), ['a → 5', 'b → 3', 'c → 2']);
  });

  it('takes a scale-down away in proportion, the largest set first', () => {
    const old = rs('old', 6, 1, { scaledFor: 10, max: 11 });
    const fresh = rs('new', 5, 2, { scaledFor: 10, max: 11, available: 0 });
    assert.deepEqual(sizes(planScale(deployment(5, 1, 1), fresh, [old])), ['old → 3', 'new → 3']);
  });

  it('gives one active set the whole size, and writes it even at the right size (its annotations may be stale)', () => {
    const only = rs('old', 3, 1, { scaledFor: 2, max: 3 });
    assert.deepEqual(sizes(planScale(deployment(5, 1, 0), undefined, [only, rs('older', 0, 0)])), ['old → 5']);
    assert.deepEqual(sizes(planScale(deployment(3, 1, 0), only, [])), ['old → 3'], 'same size, still written');
  });

  it('with no active set, scales the new set, else the newest old one', () => {
    assert.deepEqual(sizes(planScale(deployment(2, 1, 0), rs('new', 0, 3), [rs('old', 0, 1)])), ['new → 2']);
    assert.deepEqual(sizes(planScale(deployment(2, 1, 0), undefined, [rs('a', 0, 1), rs('b', 0, 2)])), ['b → 2']);
    assert.deepEqual(planScale(deployment(2, 1, 0), undefined, []), []);
  });

  it('once the new set is saturated, scales the old ones to zero', () => {
    const fresh = rs('new', 4, 3, { scaledFor: 4, max: 5 });
    const plan = planScale(deployment(4, 1, 0), fresh, [rs('old', 1, 1), rs('gone', 0, 2)]);
    assert.deepEqual(sizes(plan), ['old → 0']);
    const notAvailable = rs('new', 4, 3, { scaledFor: 4, max: 5, available: 3 });
    assert.deepEqual(sizes(planScale(deployment(4, 1, 0), notAvailable, [rs('old', 1, 1, { scaledFor: 4, max: 5 })])), ['old → 1', 'new → 4']);
  });

  it('leaves several active sets of a Recreate Deployment alone', () => {
    const recreate = deployment(4, 1, 0, { strategy: { type: 'Recreate' } });
    assert.deepEqual(planScale(recreate, rs('new', 2, 2), [rs('old', 2, 1)]), []);
  });
});

describe('the new ReplicaSet', () => {
  const d = deployment(4, 1, 0);

  it('is built as <deployment>-<pod-template-hash>, within the surge, at the next revision', () => {
    const plan = planNewReplicaSet(
      d,
      undefined,
      [rs('old', 4, 1), { ...rs('older', 0, 0), metadata: { ...rs('older', 0, 0).metadata, annotations: { [REVISION_ANNOTATION]: '2' } } }],
      true,
    );
    assert.equal(plan.action, 'create');
    if (plan.action !== 'create') return;
    const hash = podTemplateHash(d.spec.template);
    assert.equal(plan.rs.metadata.name, `web-${hash}`);
    assert.equal(plan.rs.spec.selector.matchLabels?.[POD_TEMPLATE_HASH_LABEL], hash);
    assert.equal(plan.rs.spec.template?.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL], hash);
    assert.equal(plan.rs.metadata.ownerReferences?.[0]?.uid, 'd-1');
    assert.equal(plan.rs.spec.replicas, 1, '4 old + 1 new is the most maxSurge 1 allows');
    assert.equal(plan.revision, '3');
    assert.deepEqual(
      [REVISION_ANNOTATION, DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION].map((a) => plan.rs.metadata.annotations?.[a]),
      ['3', '4', '5'],
    );
  });

  it('is hashed afresh with the collisionCount, so a name taken by another set is not asked for again', () => {
    const first = planNewReplicaSet(d, undefined, [], true);
    const next = planNewReplicaSet({ ...d, status: { collisionCount: 1 } }, undefined, [], true);
    assert.ok(first.action === 'create' && next.action === 'create');
    assert.notEqual(first.rs.metadata.name, next.rs.metadata.name);
    assert.equal(next.rs.metadata.name, `web-${podTemplateHash(d.spec.template, 1)}`);
  });

  it('takes a set that holds the name as its own only when the Deployment controls it and its template is the same', () => {
    const ours = { ...rs('web-x', 0, 1, { image: 'busybox:2' }) };
    assert.equal(isOwnNewReplicaSet(d, ours), true);
    const foreign = { ...ours, metadata: { ...ours.metadata, ownerReferences: [{ ...ours.metadata.ownerReferences![0]!, uid: 'other' }] } };
    assert.equal(isOwnNewReplicaSet(d, foreign), false);
    assert.equal(isOwnNewReplicaSet(d, rs('web-x', 0, 1, { image: 'busybox:1' })), false, 'another template: a hash collision');
    assert.equal(isOwnNewReplicaSet(d, undefined), false);
  });

  it('is not created by a pass that may not create it', () => {
    assert.deepEqual(planNewReplicaSet(d, undefined, [rs('old', 4, 1)], false), { action: 'none' });
  });

  it('when found up to date gives the Deployment its revision, and Progressing=FoundNewReplicaSet once', () => {
    const current = rs('new', 1, 2, { image: 'busybox:2' });
    current.metadata.annotations![REVISION_ANNOTATION] = '2';
    const withDeadline = deployment(4, 1, 0, { progressDeadlineSeconds: 600 });
    assert.deepEqual(planNewReplicaSet(withDeadline, current, [rs('old', 3, 1)], true), { action: 'use', rs: current, revision: '2', found: true });
    const progressing = { ...withDeadline, status: { conditions: [{ type: 'Progressing', status: 'True' as const }] } };
    assert.deepEqual(planNewReplicaSet(progressing, current, [], true), { action: 'use', rs: current, revision: '2', found: false });
  });

  it('when found behind is brought up to date first: a set rolled back to moves to the next revision and keeps the old one in its history', () => {
    const rolledBack = rs('new', 1, 2, { image: 'busybox:2' });
    rolledBack.metadata.annotations![REVISION_ANNOTATION] = '1';
    const old = rs('old', 3, 1);
    old.metadata.annotations![REVISION_ANNOTATION] = '2';
    const plan = planNewReplicaSet(deployment(4, 1, 0, { minReadySeconds: 5 }), rolledBack, [old], true);
    assert.equal(plan.action, 'update');
    if (plan.action !== 'update') return;
    assert.equal(plan.updated.metadata.annotations?.[REVISION_ANNOTATION], '3');
    assert.equal(plan.updated.metadata.annotations?.[REVISION_HISTORY_ANNOTATION], '1');
    assert.equal(plan.updated.spec.minReadySeconds, 5);
    assert.equal(rolledBack.metadata.annotations?.[REVISION_ANNOTATION], '1', 'the cached set is not changed');
  });
});
