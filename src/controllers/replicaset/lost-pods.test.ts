// What a ReplicaSet counts as lost, without a server: the handlers only note when a pod started
// going; the pass judges those (not ours, not counted twice) and the failed pods, and forgets
// what it remembered of pods the cache no longer holds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../api/core/index.js';
import { LostPods } from './lost-pods.js';

const SET = 'default/web';
const T0 = Date.parse('2026-01-01T00:00:00Z');

/** A pod on `node`; null: not scheduled. */
function pod(name: string, node: string | null = 'n1'): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: { containers: [], ...(node ? { nodeName: node } : {}) },
  };
}

/** A cache that holds the pods named. */
const holding =
  (...pods: Pod[]) =>
  (key: string, uid: string) =>
    pods.some((p) => `default/${p.metadata.name}` === key && p.metadata.uid === uid);

describe('lost pods', () => {
  it('a pod seen going becomes a loss at the next pass, dated when it was seen', () => {
    const lost = new LostPods();
    lost.sawGoing(SET, pod('a'), T0);
    assert.deepEqual(lost.pending(SET, T0), [], 'nothing is a loss before the pass judges it');
    lost.notice(SET, [], holding(), T0 + 5000);
    assert.deepEqual(lost.pending(SET, T0 + 5000), [{ uid: 'uid-a', name: 'a', node: 'n1', cause: 'deleted', at: T0 }]);
  });

  it('a pod seen terminating and then deleted counts once, whether the pass ran between or not', () => {
    const lost = new LostPods();
    const a = pod('a');
    lost.sawGoing(SET, a, T0);
    lost.notice(SET, [], holding(a), T0);
    lost.sawGoing(SET, a, T0 + 1000);
    lost.notice(SET, [], holding(), T0 + 1000);
    const b = pod('b');
    lost.sawGoing(SET, b, T0 + 2000);
    lost.sawGoing(SET, b, T0 + 3000);
    lost.notice(SET, [], holding(), T0 + 3000);
    assert.deepEqual(
      lost.pending(SET, T0 + 3000).map((l) => [l.name, l.at]),
      [
        ['a', T0],
        ['b', T0 + 2000],
      ],
    );
  });

  it('the pods the controller deleted itself are not losses, nor are pods that were never scheduled', () => {
    const lost = new LostPods();
    const mine = pod('mine');
    lost.deleting(SET, mine);
    lost.sawGoing(SET, mine, T0);
    lost.sawGoing(SET, pod('unscheduled', null), T0);
    lost.notice(SET, [], holding(), T0);
    assert.deepEqual(lost.pending(SET, T0), []);
  });

  it('notes failed pods after the pods seen going, and each once while the cache holds it', () => {
    const lost = new LostPods();
    const failed = pod('failed');
    lost.sawGoing(SET, pod('deleted'), T0);
    lost.notice(SET, [failed], holding(failed), T0 + 1000);
    lost.notice(SET, [failed], holding(failed), T0 + 2000);
    assert.deepEqual(
      lost.pending(SET, T0 + 2000).map((l) => [l.name, l.cause, l.at]),
      [
        ['deleted', 'deleted', T0],
        ['failed', 'failed', T0 + 1000],
      ],
    );
  });

  it('forgets what it remembered of a pod once the cache no longer holds it', () => {
    const lost = new LostPods();
    const mine = pod('mine');
    lost.deleting(SET, mine);
    lost.notice(SET, [], holding(mine), T0);
    lost.sawGoing(SET, mine, T0);
    lost.notice(SET, [], holding(), T0);
    // Seen again under the same uid (which the API never does): nothing marks it ours any more.
    lost.sawGoing(SET, mine, T0 + 1000);
    lost.notice(SET, [], holding(), T0 + 1000);
    assert.deepEqual(
      lost.pending(SET, T0 + 1000).map((l) => l.name),
      ['mine'],
    );
  });

  it('replaced, cleared and forgotten losses wait no more; unreplaced ones are forgotten after 10 minutes', () => {
    const lost = new LostPods();
    for (const name of ['a', 'b', 'c']) lost.sawGoing(SET, pod(name), T0);
    lost.notice(SET, [], holding(), T0);
    const [a] = lost.pending(SET, T0);
    lost.replaced(SET, [a!]);
    assert.deepEqual(
      lost.pending(SET, T0).map((l) => l.name),
      ['b', 'c'],
    );
    assert.deepEqual(lost.pending(SET, T0 + 10 * 60_000), [], 'too old');
    lost.sawGoing(SET, pod('d'), T0);
    lost.notice(SET, [], holding(), T0);
    lost.clear(SET);
    assert.deepEqual(lost.pending(SET, T0), []);
    lost.sawGoing(SET, pod('e'), T0);
    lost.forget(SET);
    lost.notice(SET, [], holding(), T0);
    assert.deepEqual(lost.pending(SET, T0), [], 'what was seen going of a forgotten owner is gone with it');
  });
});
