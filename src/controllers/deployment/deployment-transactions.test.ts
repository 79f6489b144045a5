// A Deployment's Transactions as the observer reads them from written objects, against a real
// API server with no Deployment controller: the test writes the Deployment's status and its
// ReplicaSets as the controller would, and only the observer's informer handlers can record.
// launch: ended by a complete status; scale: begun by spec.replicas, its resize of the set no
// rollout step; update: one per step (a new set beside an active one, an old set shrunk), the
// previous one Succeeded by the next, the open one Failed by ProgressDeadlineExceeded; the
// Deployment's deletion fails what is open; a paused Deployment's resize is no step; and an
// observer started anew records the scale its sets show pending.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { resources, type ApiClient, type Informer } from '../../client/index.js';
import { type ControllerFactory } from '../manager.js';
import { startControllerTest, type ControllerTestBed } from '../../../test/support/controllers/controller-test.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { deploymentManifest } from '../../../test/support/controllers/deployment-manifest.js';
import { newControllerRef } from '../../api/owner-references.js';
import type { ReplicaSet } from '../replicaset/types.js';
import { DeploymentOperations } from './deployment-transactions.js';
import { DESIRED_REPLICAS_ANNOTATION, type Deployment, type DeploymentStatus } from './types.js';
import { transactionsOf } from '../../../test/support/controllers/transactions.js';

describe('deployment transactions, observed', () => {
  let bed: ControllerTestBed;
  let api: ApiClient;
  const deployments = () => api.resource<Deployment>(resources.deployments, 'default');
  const replicaSets = () => api.resource<ReplicaSet>(resources.replicasets, 'default');
  // The observer's informers: a write the controller makes follows what it read from them, so the
  // test waits for them to show its own writes where the order of two watch streams matters.
  let observedDeployments: Informer<Deployment>;
  let observedSets: Informer<ReplicaSet>;

  /** The observer alone, as a controller of the manager (whose informers it reads). */
  const observerOnly: ControllerFactory = (ctx) => {
    observedDeployments = ctx.factory.informerFor<Deployment>(resources.deployments);
    observedSets = ctx.factory.informerFor<ReplicaSet>(resources.replicasets);
    new DeploymentOperations(ctx.transactions, observedDeployments, observedSets).observe((key) => ctx.shards.owns(key));
    return { name: 'deployment-transactions', start() {}, async stop() {} };
  };

  before(async () => {
    bed = await startControllerTest(observerOnly);
    api = bed.api;
  });
  after(() => bed.close());

  const withReason = async (target: KubeObject, operation: string, reason: string, phase: string) =>
    (await transactionsOf(api, target, operation)).find((tx) => tx.spec.reason === reason && tx.status?.phase === phase);

  /** A set of the Deployment with its current template (as the API server defaulted it), last scaled for `scaledFor`. */
  async function createSet(d: Readonly<Deployment>, name: string, replicas: number, scaledFor: number): Promise<ReplicaSet> {
    const current = await deployments().get(d.metadata.name!);
    return replicaSets().create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name, namespace: 'default', ownerReferences: [newControllerRef(current)], annotations: { [DESIRED_REPLICAS_ANNOTATION]: String(scaledFor) } },
      spec: { replicas, selector: structuredClone(current.spec.selector), template: structuredClone(current.spec.template) },
    });
  }

  async function resize(name: string, replicas: number, scaledFor: number): Promise<void> {
    await replicaSets().patch(name, 'merge', { metadata: { annotations: { [DESIRED_REPLICAS_ANNOTATION]: String(scaledFor) } }, spec: { replicas } });
  }

  /** The status the controller would write, for the Deployment's current generation. */
  async function writeStatus(name: string, status: Omit<DeploymentStatus, 'observedGeneration'>): Promise<void> {
    const { metadata } = await deployments().get(name);
    await deployments().patch(name, 'merge', { status: { observedGeneration: metadata.generation, ...status } }, { subresource: 'status' });
  }

  const complete = (n: number) => ({ replicas: n, updatedReplicas: n, readyReplicas: n, availableReplicas: n });

  it('launches, scales without a rollout step, steps a rollout and fails its open step at the progress deadline', async () => {
    const d = await deployments().create(deploymentManifest('obs', 2));
    const launch = await waitFor('launch Running', () => withReason(d, 'launch', 'created with 2 replicas', 'Running'));
    assert.equal(launch.status?.progress, '0/2');
    await createSet(d, 'obs-a', 2, 2);
    await writeStatus('obs', complete(2));
    const launched = await waitFor('launch Succeeded', () => withReason(d, 'launch', 'created with 2 replicas', 'Succeeded'));
    assert.equal(launched.status?.progress, '2/2');
    assert.equal(launched.status?.message, '2 of 2 replicas available');

    await deployments().patch('obs', 'merge', { spec: { replicas: 3 } });
    await waitFor('scale Running', () => withReason(d, 'scale', 'replicas changed from 2 to 3', 'Running'));
    await resize('obs-a', 3, 3); // a scaling pass: the set last scaled for 2 is brought to 3
    await writeStatus('obs', complete(3));
    const scaled = await waitFor('scale Succeeded', () => withReason(d, 'scale', 'replicas changed from 2 to 3', 'Succeeded'));
    assert.equal(scaled.status?.message, '3 of 3 replicas available');
    assert.deepEqual(await transactionsOf(api, d, 'update'), [], 'a scale is no rollout step');

    const rolled = await deployments().patch('obs', 'strategic', {
      spec: { template: { spec: { containers: [{ name: 'main', image: 'drover-test/busybox:2' }] } } },
    });
    await waitFor('the new template in the cache', () => observedDeployments.get('default/obs')?.metadata.generation === rolled.metadata.generation);
    await createSet(d, 'obs-b', 1, 3);
    const first = await waitFor('the first step', () => withReason(d, 'update', 'scale new replica set obs-b to 1', 'Running'));
    assert.equal(first.status?.progress, '0/3');
    await resize('obs-a', 2, 3);
    const done = await waitFor('the first step ended by the next', () => withReason(d, 'update', 'scale new replica set obs-b to 1', 'Succeeded'));
    assert.equal(done.status?.message, 'next step: scale old replica set obs-a to 2');
    await replicaSets().patch('obs-b', 'merge', { status: { replicas: 1, readyReplicas: 1 } }, { subresource: 'status' });
    await waitFor('the new set ready in the cache', () => observedSets.get('default/obs-b')?.status?.readyReplicas === 1);
    await writeStatus('obs', { replicas: 4, updatedReplicas: 1, readyReplicas: 3, availableReplicas: 3 });
    await waitFor('the step advanced by the new set', async () =>
      (await withReason(d, 'update', 'scale old replica set obs-a to 2', 'Running'))?.status?.progress === '1/3' ? true : undefined,
    );
    const message = 'ReplicaSet "obs-b" has timed out progressing.';
    const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const timedOut = { type: 'Progressing', status: 'False' as const, reason: 'ProgressDeadlineExceeded', message, lastUpdateTime: at, lastTransitionTime: at };
    await writeStatus('obs', { replicas: 4, updatedReplicas: 1, readyReplicas: 3, availableReplicas: 3, conditions: [timedOut] });
    const failed = await waitFor('the open step Failed', () => withReason(d, 'update', 'scale old replica set obs-a to 2', 'Failed'));
    assert.equal(failed.status?.message, message);

    // The user fixes the template: the new set's step must not be failed by the verdict the
    // status still carries for the old generation (the controller's revision annotation on the
    // Deployment comes before its status write for the new generation).
    const fixed = await deployments().patch('obs', 'strategic', {
      spec: { template: { spec: { containers: [{ name: 'main', image: 'drover-test/busybox:3' }] } } },
    });
    await waitFor('the fixed template in the cache', () => observedDeployments.get('default/obs')?.metadata.generation === fixed.metadata.generation);
    await createSet(d, 'obs-c', 1, 3);
    await waitFor('the step of the fixed template', () => withReason(d, 'update', 'scale new replica set obs-c to 1', 'Running'));
    await deployments().patch('obs', 'merge', { metadata: { annotations: { 'deployment.kubernetes.io/revision': '3' } } });
    await waitFor(
      'the annotation in the cache',
      () => observedDeployments.get('default/obs')?.metadata.annotations?.['deployment.kubernetes.io/revision'] === '3',
    );
    const progressing = { ...timedOut, status: 'True' as const, reason: 'NewReplicaSetCreated', message: 'Created new replica set "obs-c"' };
    await writeStatus('obs', { replicas: 4, updatedReplicas: 1, readyReplicas: 3, availableReplicas: 3, conditions: [progressing] });
    await waitFor('the new generation observed', () => observedDeployments.get('default/obs')?.status?.observedGeneration === fixed.metadata.generation);
    assert.ok(await withReason(d, 'update', 'scale new replica set obs-c to 1', 'Running'), 'the step is still running after the stale verdict');
  });

  it('fails what is open when the Deployment is deleted', async () => {
    const d = await deployments().create(deploymentManifest('gone', 1));
    await waitFor('launch Running', () => withReason(d, 'launch', 'created with 1 replicas', 'Running'));
    await deployments().delete('gone');
    const failed = await waitFor('launch Failed', () => withReason(d, 'launch', 'created with 1 replicas', 'Failed'));
    assert.equal(failed.status?.message, 'the Deployment was deleted');
  });

  it("takes a paused Deployment's resizes for its scale, not for rollout steps", async () => {
    const d = await deployments().create(deploymentManifest('held', 0, { extra: { paused: true } }));
    await createSet(d, 'held-a', 0, 0);
    await writeStatus('held', complete(0));
    await deployments().patch('held', 'merge', { spec: { replicas: 2 } });
    await waitFor('scale Running', () => withReason(d, 'scale', 'replicas changed from 0 to 2', 'Running'));
    await resize('held-a', 2, 2); // no active set was last scaled for another size: only the pause says this is no step
    await waitFor('the resize in the cache', () => observedSets.get('default/held-a')?.spec.replicas === 2);
    await writeStatus('held', complete(2));
    await waitFor('scale Succeeded', () => withReason(d, 'scale', 'replicas changed from 0 to 2', 'Succeeded'));
    assert.deepEqual(await transactionsOf(api, d, 'update'), [], 'a paused Deployment takes no rollout step');
  });

  it('records, on starting, a scale its sets show pending (they were last scaled for another size)', async () => {
    await bed.manager.stop();
    const d = await deployments().create(deploymentManifest('later', 3));
    await createSet(d, 'later-a', 2, 2);
    await writeStatus('later', complete(2));
    await bed.startManager(observerOnly);
    await waitFor('scale Running', () => withReason(d, 'scale', 'replicas changed from 2 to 3', 'Running'));
    assert.deepEqual(await transactionsOf(api, d, 'launch'), [], 'a Deployment with a status written was launched before');
  });
});
