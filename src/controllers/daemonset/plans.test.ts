import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newDaemonPod, pinToNode, targetNode } from './daemon-pod.js';
import { planManage, type ManageInput } from './manage.js';
import { planRollingUpdate, scaledValue, type RollingUpdateInput } from './rolling-update.js';
import type { DaemonSet } from './types.js';
import type { Node, Pod, PodPhase } from '../../api/core/index.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');
let serial = 0;

function pod(node: string, hash: string, options: { ready?: boolean; phase?: PodPhase; age?: number; deleting?: boolean } = {}): Pod {
  const created = new Date(NOW - (options.age ?? 60) * 1000).toISOString();
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `p${++serial}`,
      namespace: 'default',
      uid: `u${serial}`,
      creationTimestamp: created,
      labels: { 'controller-revision-hash': hash },
      ...(options.deleting ? { deletionTimestamp: created } : {}),
    },
    spec: { nodeName: node, containers: [] },
    status: {
      phase: options.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: options.ready === false ? 'False' : 'True', lastTransitionTime: created }],
    },
  };
}

const node = (name: string): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { conditions: [{ type: 'Ready', status: 'True' }] } });

function manage(pods: Pod[], overrides: Partial<ManageInput> = {}) {
  const podsByNode = new Map<string, Pod[]>();
  for (const p of pods) podsByNode.set(targetNode(p) ?? '', [...(podsByNode.get(targetNode(p) ?? '') ?? []), p]);
  return planManage({
    nodes: [node('a'), node('b'), node('c')],
    podsByNode,
    hash: 'new',
    surge: false,
    minReadySeconds: 0,
    now: NOW,
    eligibility: () => ({ shouldRun: true, shouldContinueRunning: true }),
    failedBackoff: () => undefined,
    ...overrides,
  });
}

describe('daemon pods', () => {
  const ds: DaemonSet = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default', uid: 'ds-1', generation: 3 },
    spec: {
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: {
          containers: [{ name: 'c', image: 'busybox' }],
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['eu'] }] }] },
            },
          },
        },
      },
    },
  };

  it("pins the pod to its node with matchFields, keeping the template's label expressions", () => {
    const p = newDaemonPod(ds, 'node-1', 'h1');
    const terms = p.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
    assert.deepEqual(terms, [
      { matchExpressions: [{ key: 'zone', operator: 'In', values: ['eu'] }], matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] },
    ]);
    assert.equal(targetNode(p), 'node-1');
    assert.deepEqual(p.metadata.labels, { app: 'agent', 'controller-revision-hash': 'h1', 'pod-template-generation': '3' });
    assert.deepEqual(p.metadata.ownerReferences, [
      { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'ds-1', controller: true, blockOwnerDeletion: true },
    ]);
    assert.equal(p.metadata.generateName, 'agent-');
    assert.ok(p.spec.tolerations?.some((t) => t.key === 'node.kubernetes.io/unreachable'));
    // The DaemonSet's own template is not touched.
    assert.equal(ds.spec.template?.spec?.tolerations, undefined);
    assert.deepEqual(pinToNode(undefined, 'x'), { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['x'] }] }] });
  });
});

describe('manage', () => {
  it('creates on nodes without a pod, keeps the oldest of several and deletes from ineligible and vanished nodes', () => {
    const old = pod('a', 'new', { age: 100 });
    const young = pod('a', 'new', { age: 10 });
    const ghost = pod('zz', 'new');
    const plan = manage([old, young, pod('c', 'new'), ghost], {
      eligibility: (n) => (n.metadata.name === 'c' ? { shouldRun: false, shouldContinueRunning: false } : { shouldRun: true, shouldContinueRunning: true }),
    });
    assert.deepEqual(plan.createOn, ['b']);
    assert.deepEqual(plan.deletions.map((d) => [d.pod.spec.nodeName, d.reason, d.force === true]).sort(), [
      ['a', 'excess', false],
      ['c', 'ineligible', false],
      ['zz', 'node-gone', true],
    ]);
    assert.equal(plan.deletions.find((d) => d.reason === 'excess')?.pod, young);
  });

  it('replaces failed pods unless the node is backing off, and waits for terminating ones', () => {
    const failed = pod('a', 'new', { phase: 'Failed' });
    let plan = manage([failed, pod('b', 'new', { deleting: true }), pod('c', 'new')]);
    assert.deepEqual(
      plan.deletions.map((d) => d.reason),
      ['failed'],
    );
    assert.deepEqual(plan.failedOn, ['a']);
    assert.deepEqual(plan.createOn, []);
    plan = manage([failed, pod('b', 'new'), pod('c', 'new')], { failedBackoff: (n) => (n === 'a' ? 2000 : undefined) });
    assert.deepEqual(plan.deletions, []);
    assert.equal(plan.retryAfterMs, 2000);
  });

  it('with surge, deletes the old pod once the new one on its node is available', () => {
    const oldPod = pod('a', 'old', { age: 100 });
    const newPod = pod('a', 'new', { age: 5, ready: false });
    assert.deepEqual(manage([oldPod, newPod, pod('b', 'new'), pod('c', 'new')], { surge: true }).deletions, []);
    const ready = pod('a', 'new', { age: 5 });
    assert.deepEqual(
      manage([oldPod, ready, pod('b', 'new'), pod('c', 'new')], { surge: true }).deletions.map((d) => d.pod),
      [oldPod],
    );
  });
});

describe('rolling update', () => {
  /** The plan for one pod a node, to template hash 'new', with maxUnavailable 1 and no surge unless `overrides` say otherwise. */
  const rollingUpdate = (pods: Pod[], overrides: Partial<RollingUpdateInput> = {}) =>
    planRollingUpdate({
      nodeToPods: new Map(pods.map((p) => [p.spec.nodeName!, [p]])),
      hash: 'new',
      maxUnavailable: 1,
      maxSurge: 0,
      minReadySeconds: 0,
      now: NOW,
      ...overrides,
    });

  it('deletes old pods up to maxUnavailable, unavailable old pods first and always', () => {
    const pods = [pod('a', 'old'), pod('b', 'old'), pod('c', 'old', { ready: false })];
    let plan = rollingUpdate(pods);
    assert.deepEqual(
      plan.deletions.map((d) => d.pod.spec.nodeName),
      ['c', 'a'],
    );
    // A new pod that is not yet available uses up the budget.
    plan = rollingUpdate([pod('a', 'new', { ready: false }), pod('b', 'old'), pod('c', 'old')]);
    assert.deepEqual(plan.deletions, []);
    // minReadySeconds: a new pod ready for 10 s is not available yet with 30 s; old ones ready for 60 s are.
    plan = rollingUpdate([pod('a', 'new', { age: 10 }), pod('b', 'old'), pod('c', 'old')], { minReadySeconds: 30 });
    assert.deepEqual(
      plan.deletions.map((d) => d.pod.spec.nodeName),
      [],
    );
    plan = rollingUpdate([pod('a', 'new'), pod('b', 'old'), pod('c', 'old')], { maxUnavailable: 2 });
    assert.deepEqual(
      plan.deletions.map((d) => d.pod.spec.nodeName),
      ['b', 'c'],
    );
  });

  it('with maxSurge creates new pods beside old ones', () => {
    const plan = rollingUpdate([pod('a', 'old'), pod('b', 'old'), pod('c', 'new')], { maxUnavailable: 0, maxSurge: 1 });
    assert.deepEqual(plan, { deletions: [], createOn: ['a'] });
  });

  it('scales percentages up', () => {
    assert.equal(scaledValue('25%', 3, 1), 1);
    assert.equal(scaledValue('50%', 5, 1), 3);
    assert.equal(scaledValue(2, 5, 1), 2);
    assert.equal(scaledValue(undefined, 5, 1), 1);
    assert.equal(scaledValue('0%', 5, 1), 0);
  });
});
