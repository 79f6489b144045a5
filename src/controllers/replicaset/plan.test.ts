// What one pass over a ReplicaSet decides, without a server: how many pods it creates or which
// it deletes, within burstReplicas, which finished pods go, and which replacements stand for a
// lost pod (held for its node when the template asks for host retain).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { metaTime } from '../../api/meta.js';
import { ANNOTATION_HOST_RETAIN, ANNOTATION_RETAIN_NODE, ANNOTATION_RETAIN_UNTIL } from '../../api/scheduling/annotations.js';
import { replicaSetManifest } from '../../../test/support/controllers/workload-pods.js';
import type { LostPod } from './lost-pods.js';
import { planReplicaSet, type ReplicaSetObserved } from './plan.js';
import type { ReplicaSet } from './types.js';
import type { Pod, PodPhase } from '../../api/core/index.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');

const replicaSet = (replicas: number, annotations?: Record<string, string>) =>
  replicaSetManifest('web', replicas, annotations ? { annotations } : {}) as ReplicaSet;

function pod(name: string, options: { node?: string; phase?: PodPhase; ready?: boolean } = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, creationTimestamp: new Date(NOW - 60_000).toISOString() },
    spec: { containers: [], ...(options.node ? { nodeName: options.node } : {}) },
    status: {
      phase: options.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: options.ready === false ? 'False' : 'True' }],
    },
  };
}

const lost = (name: string, secondsAgo: number): LostPod => ({ uid: `uid-${name}`, name, node: 'n1', cause: 'deleted', at: NOW - secondsAgo * 1000 });

function plan(overrides: Partial<ReplicaSetObserved> & Pick<ReplicaSetObserved, 'rs'>) {
  return planReplicaSet({ active: [], finished: [], deletingFinished: new Set(), losses: [], burstReplicas: 500, now: NOW, ...overrides });
}

describe('a ReplicaSet pass', () => {
  it('creates the pods missing, at most burstReplicas of them', () => {
    const active = [pod('a', { node: 'n1' })];
    assert.equal(plan({ rs: replicaSet(4), active }).creations.length, 3);
    const burst = plan({ rs: replicaSet(4), active, burstReplicas: 2 });
    assert.equal(burst.creations.length, 2);
    assert.deepEqual(burst.deletions, []);
  });

  it('deletes the excess, the cheapest to lose first (unscheduled, then pending, then not ready), at most burstReplicas', () => {
    const active = [
      pod('ready', { node: 'n1' }),
      pod('unready', { node: 'n1', ready: false }),
      pod('pending', { node: 'n1', phase: 'Pending', ready: false }),
      pod('unscheduled', { phase: 'Pending', ready: false }),
    ];
    const result = plan({ rs: replicaSet(1), active });
    assert.deepEqual(
      result.deletions.map((p) => p.metadata.name),
      ['unscheduled', 'pending', 'unready'],
    );
    assert.deepEqual(result.creations, []);
    assert.equal(plan({ rs: replicaSet(1), active, burstReplicas: 1 }).deletions.length, 1);
  });

  it('does nothing at its size, but deletes finished pods whose deletion is not under way yet', () => {
    const finished = [pod('failed', { node: 'n1', phase: 'Failed' }), pod('going', { node: 'n1', phase: 'Failed' })];
    const result = plan({ rs: replicaSet(1), active: [pod('a', { node: 'n1' })], finished, deletingFinished: new Set(['uid-going']) });
    assert.deepEqual(result.creations, []);
    assert.deepEqual(result.deletions, []);
    assert.deepEqual(
      result.finished.map((p) => p.metadata.name),
      ['failed'],
    );
  });

  it('stands the first replacements for the oldest losses; plain pods for the rest', () => {
    const result = plan({ rs: replicaSet(3), losses: [lost('old', 30), lost('new', 10)] });
    assert.deepEqual(
      result.creations.map((c) => c.lost?.name),
      ['old', 'new', undefined],
    );
    assert.ok(
      result.creations.every((c) => c.annotations === undefined),
      'no host retain asked for',
    );
  });

  it("holds a replacement for the lost pod's node until the host-retain deadline, and not after it", () => {
    const rs = replicaSet(2, { [ANNOTATION_HOST_RETAIN]: '60' });
    const result = plan({ rs, losses: [lost('recent', 10), lost('late', 90)] });
    assert.deepEqual(result.creations[0]?.annotations, {
      [ANNOTATION_RETAIN_NODE]: 'n1',
      [ANNOTATION_RETAIN_UNTIL]: metaTime(new Date(NOW + 50_000)),
    });
    assert.equal(result.creations[1]?.lost?.name, 'late', 'still recorded as the replacement of its loss');
    assert.equal(result.creations[1]?.annotations, undefined, 'its deadline has passed');
  });
});
