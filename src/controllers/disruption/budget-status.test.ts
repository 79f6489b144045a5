import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { computeStatus, failSafeStatus } from './budget-status.js';
import { expectedScale, type ScaleSources } from './expected-scale.js';

const owner = (kind: string, name: string, uid: string, apiVersion = 'apps/v1') => ({ apiVersion, kind, name, uid, controller: true });

function object(kind: string, name: string, uid: string, extra: Partial<KubeObject> = {}, owners?: ReturnType<typeof owner>[]): KubeObject {
  const metadata: KubeObject['metadata'] = { name, namespace: 'default', uid };
  if (owners) metadata.ownerReferences = owners;
  return { apiVersion: 'apps/v1', kind, metadata, ...extra };
}

function sources(objects: KubeObject[]): ScaleSources {
  const lookup = (kind: string) => ({ getByName: (_ns: string | undefined, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name) });
  return {
    replicaSets: lookup('ReplicaSet'),
    deployments: lookup('Deployment'),
    statefulSets: lookup('StatefulSet'),
    replicationControllers: lookup('ReplicationController'),
  };
}

const deployment = object('Deployment', 'web', 'd1', { spec: { replicas: 3 } });
const oldRs = object('ReplicaSet', 'web-old', 'rs1', { spec: { replicas: 1 } }, [owner('Deployment', 'web', 'd1')]);
const newRs = object('ReplicaSet', 'web-new', 'rs2', { spec: { replicas: 2 } }, [owner('Deployment', 'web', 'd1')]);
const lonelyRs = object('ReplicaSet', 'solo', 'rs3', { spec: { replicas: 4 } });
const ready = { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } };
const pod = (name: string, rs?: KubeObject) =>
  object('Pod', name, `uid-${name}`, ready, rs ? [owner('ReplicaSet', rs.metadata.name!, rs.metadata.uid!)] : undefined);

describe("expected pods from the pods' controllers", () => {
  const all = sources([deployment, oldRs, newRs, lonelyRs]);

  it('counts a Deployment once across its ReplicaSets, and a bare ReplicaSet by its own replicas', () => {
    assert.deepEqual(expectedScale(all, [pod('a', oldRs), pod('b', newRs), pod('c', newRs)]), { expected: 3, unmanaged: [] });
    assert.deepEqual(expectedScale(all, [pod('a', newRs), pod('s', lonelyRs)]), { expected: 7, unmanaged: [] });
  });

  it('counts a StatefulSet and a ReplicationController by their replicas', () => {
    const sts = object('StatefulSet', 'db', 'sts1', { spec: { replicas: 3 } });
    const rc = { ...object('ReplicationController', 'legacy', 'rc1', { spec: {} }), apiVersion: 'v1' };
    const withBoth = sources([sts, rc]);
    const member = (name: string) => object('Pod', name, `uid-${name}`, ready, [owner('StatefulSet', 'db', 'sts1')]);
    const legacy = object('Pod', 'l', 'uid-l', ready, [owner('ReplicationController', 'legacy', 'rc1', 'v1')]);
    assert.deepEqual(expectedScale(withBoth, [member('db-0'), member('db-1'), legacy]), { expected: 4, unmanaged: [] });
  });

  it('leaves pods without a controller out, and fails on a controller it cannot size', () => {
    assert.deepEqual(expectedScale(all, [pod('a', newRs), pod('bare')]), { expected: 3, unmanaged: ['bare'] });
    const stale = object('ReplicaSet', 'solo', 'other-uid');
    assert.throws(() => expectedScale(all, [pod('x', stale)]), /found no controllers for pod "x"/);
    const job = object('Pod', 'j', 'uid-j', ready, [owner('Job', 'batch', 'j1', 'batch/v1')]);
    assert.throws(() => expectedScale(all, [job]), /found no controllers/);
  });
});

describe("a budget's status", () => {
  const all = sources([deployment, newRs]);
  const now = new Date('2026-01-01T00:10:00Z');
  const budget = (spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject => ({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'default', generation: 2 },
    spec,
    ...(status ? { status } : {}),
  });

  it("computes every field, maxUnavailable against the Deployment's replicas", () => {
    const { status } = computeStatus(budget({ maxUnavailable: 1 }), [pod('a', newRs), pod('b', newRs), pod('c', newRs)], all, now);
    assert.deepEqual(
      { ...status, conditions: undefined },
      {
        observedGeneration: 2,
        disruptionsAllowed: 1,
        currentHealthy: 3,
        desiredHealthy: 2,
        expectedPods: 3,
        conditions: undefined,
      },
    );
    assert.equal(status.conditions?.[0]?.reason, 'SufficientPods');
  });

  it('keeps a recent eviction out of the healthy count until its pod goes', () => {
    const computed = computeStatus(budget({ minAvailable: 1 }, { disruptedPods: { a: '2026-01-01T00:09:50Z' } }), [pod('a', newRs), pod('b', newRs)], all, now);
    assert.equal(computed.status.currentHealthy, 1);
    assert.equal(computed.status.disruptionsAllowed, 0);
    assert.equal(computed.status.conditions?.[0]?.reason, 'InsufficientPods');
    assert.equal(computed.recheckAt, Date.parse('2026-01-01T00:11:50Z'));
  });

  it('fails safe: no disruption, DisruptionAllowed False with the reason', () => {
    const status = failSafeStatus(
      budget({ maxUnavailable: 1 }, { disruptionsAllowed: 2, currentHealthy: 3, desiredHealthy: 1, expectedPods: 3 }),
      'found no controllers for pod "x"',
      now,
    );
    assert.equal(status.disruptionsAllowed, 0);
    assert.deepEqual([status.conditions?.[0]?.reason, status.conditions?.[0]?.message], ['SyncFailed', 'found no controllers for pod "x"']);
  });
});
