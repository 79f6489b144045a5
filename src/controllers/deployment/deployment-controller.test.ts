import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { resources, type ApiClient } from '../../client/index.js';
import { ReplicaSetController } from '../replicaset/replicaset-controller.js';
import { podsOf, startFakeAgent, type FakeAgent } from '../../../test/support/controllers/workload-pods.js';
import { startControllerTest, type ControllerTestBed } from '../../../test/support/controllers/controller-test.js';
import type { ReplicaSet } from '../replicaset/types.js';
import { DeploymentController } from './deployment-controller.js';
import type { Deployment } from './types.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { deploymentManifest, STUCK_LABEL } from '../../../test/support/controllers/deployment-manifest.js';
import type { Pod } from '../../api/core/index.js';
import { isPodReady } from '../../api/core/pod-conditions.js';
import { transactionsOf } from '../../../test/support/controllers/transactions.js';

describe('deployment controller', () => {
  let harness: ControllerTestBed;
  let api: ApiClient;
  let agent: FakeAgent;
  const deployments = () => api.resource<Deployment>(resources.deployments, 'default');
  const replicaSets = () => api.resource<ReplicaSet>(resources.replicasets, 'default');

  before(async () => {
    harness = await startControllerTest(
      (ctx) => new ReplicaSetController(ctx),
      (ctx) => new DeploymentController(ctx),
    );
    api = harness.api;
    agent = startFakeAgent(api, { skip: (pod) => pod.metadata.labels?.[STUCK_LABEL] === 'true' });
  });
  after(async () => {
    await agent.stop();
    await harness.close();
  });

  async function setsOf(d: KubeObject): Promise<ReplicaSet[]> {
    const list = await replicaSets().list();
    return list.items
      .filter((rs) => rs.metadata.ownerReferences?.some((ref) => ref.uid === d.metadata.uid))
      .sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));
  }

  /** What `kubectl rollout status` waits for. */
  async function rolledOut(name: string, timeoutMs = 15_000): Promise<Deployment> {
    return waitFor(
      `${name} rolled out`,
      async () => {
        const d = await deployments().get(name);
        const s = d.status ?? {};
        const done =
          (d.metadata.generation ?? 0) <= (s.observedGeneration ?? 0) &&
          (s.updatedReplicas ?? 0) === d.spec.replicas &&
          (s.replicas ?? 0) === (s.updatedReplicas ?? 0) &&
          (s.availableReplicas ?? 0) === (s.updatedReplicas ?? 0);
        return done ? d : undefined;
      },
      timeoutMs,
    );
  }

  const condition = (d: Deployment, type: string) => d.status?.conditions?.find((c) => c.type === type);

  it('launches a Deployment through a ReplicaSet named by its pod-template-hash', async () => {
    const created = await deployments().create(deploymentManifest('web', 3));
    const d = await rolledOut('web');
    const [rs, ...others] = await setsOf(created);
    assert.equal(others.length, 0);
    const hash = rs!.metadata.labels?.['pod-template-hash'];
    assert.ok(hash);
    assert.equal(rs!.metadata.name, `web-${hash}`);
    assert.deepEqual(rs!.spec.selector.matchLabels, { app: 'web', 'pod-template-hash': hash });
    assert.equal(rs!.spec.template?.metadata?.labels?.['pod-template-hash'], hash);
    assert.deepEqual(rs!.metadata.ownerReferences, [
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: created.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
    assert.equal(rs!.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
    assert.equal(rs!.metadata.annotations?.['deployment.kubernetes.io/desired-replicas'], '3');
    assert.equal(rs!.metadata.annotations?.['deployment.kubernetes.io/max-replicas'], '4');
    assert.equal(d.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
    assert.deepEqual(
      [d.status?.replicas, d.status?.updatedReplicas, d.status?.readyReplicas, d.status?.availableReplicas, d.status?.unavailableReplicas ?? 0],
      [3, 3, 3, 3, 0],
    );
    assert.equal(condition(d, 'Available')?.reason, 'MinimumReplicasAvailable');
    const progressing = await waitFor('NewReplicaSetAvailable', async () => {
      const c = condition(await deployments().get('web'), 'Progressing');
      return c?.reason === 'NewReplicaSetAvailable' ? c : undefined;
    });
    assert.equal(progressing.message, `ReplicaSet "web-${hash}" has successfully progressed.`);
    const launch = await waitFor('launch Succeeded', async () =>
      (await transactionsOf(api, created)).find((tx) => tx.spec.operation === 'launch' && tx.status?.phase === 'Succeeded'),
    );
    assert.equal(launch.status?.progress, '3/3');
  });

  it('rolls out a new template without dropping below replicas − maxUnavailable, one transaction per step', async () => {
    const d = await deployments().get('web');
    let minReady = Infinity;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const pods = (await podsOfDeployment(d)).filter((pod) => !pod.metadata.deletionTimestamp && isPodReady(pod));
        minReady = Math.min(minReady, pods.length);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await deployments().patch('web', 'strategic', { spec: { template: { spec: { containers: [{ name: 'main', image: 'drover-test/busybox:2' }] } } } });
    await waitFor('generation 2 observed', async () => (await deployments().get('web')).status?.observedGeneration === 2);
    const after = await rolledOut('web');
    sampling = false;
    await sampler;
    assert.ok(minReady >= 3 - 0, `ready pods fell to ${minReady}`); // 25% of 3 rounds down to 0 unavailable
    const sets = await setsOf(d);
    assert.equal(sets.length, 2);
    const fresh = sets.find((rs) => rs.spec.template?.spec?.['containers'] && JSON.stringify(rs.spec.template.spec['containers']).includes('busybox:2'))!;
    const old = sets.find((rs) => rs !== fresh)!;
    assert.equal(fresh.spec.replicas, 3);
    assert.equal(old.spec.replicas, 0);
    assert.equal(fresh.metadata.annotations?.['deployment.kubernetes.io/revision'], '2');
    assert.equal(after.metadata.annotations?.['deployment.kubernetes.io/revision'], '2');
    const events = (await api.resource(resources.events, 'default').list()).items.filter((e) => e['reason'] === 'ScalingReplicaSet');
    const messages = events.map((e) => String(e['message']));
    assert.ok(messages.includes(`Scaled up replica set ${fresh.metadata.name} from 0 to 1`), messages.join('\n'));
    assert.ok(
      messages.some((m) => m.startsWith(`Scaled down replica set ${old.metadata.name} from 3 to 2`)),
      messages.join('\n'),
    );
    const steps = await waitFor('every update step Succeeded', async () => {
      const updates = (await transactionsOf(api, d)).filter((tx) => tx.spec.operation === 'update');
      return updates.length >= 2 && updates.every((tx) => tx.status?.phase === 'Succeeded') ? updates : undefined;
    });
    assert.ok(
      steps.some((tx) => tx.spec.reason === `scale new replica set ${fresh.metadata.name} to 1`),
      steps.map((tx) => tx.spec.reason).join('\n'),
    );
    assert.ok(
      steps.some((tx) => tx.spec.reason === `scale old replica set ${old.metadata.name} to 0`),
      steps.map((tx) => tx.spec.reason).join('\n'),
    );
  });

  it('rolls back to an earlier template by reusing its ReplicaSet with a new revision', async () => {
    const d = await deployments().get('web');
    await deployments().patch('web', 'strategic', { spec: { template: { spec: { containers: [{ name: 'main', image: 'drover-test/busybox:1' }] } } } });
    await waitFor('generation 3 observed', async () => (await deployments().get('web')).status?.observedGeneration === 3);
    await rolledOut('web');
    const sets = await setsOf(d);
    assert.equal(sets.length, 2, 'no third set');
    const current = sets.find((rs) => rs.spec.replicas === 3)!;
    assert.equal(current.metadata.annotations?.['deployment.kubernetes.io/revision'], '3');
    assert.equal(current.metadata.annotations?.['deployment.kubernetes.io/revision-history'], '1');
  });

  it('scales, recording a scale transaction', async () => {
    const d = await deployments().get('web');
    await api.resource(resources.deployments, 'default').updateSubresource('web', 'scale', {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 5 },
    });
    await rolledOut('web');
    const [active] = (await setsOf(d)).filter((rs) => (rs.spec.replicas ?? 0) > 0);
    assert.equal(active?.spec.replicas, 5);
    assert.equal(active?.metadata.annotations?.['deployment.kubernetes.io/desired-replicas'], '5');
    const scale = await waitFor('scale Succeeded', async () =>
      (await transactionsOf(api, d)).find((tx) => tx.spec.operation === 'scale' && tx.status?.phase === 'Succeeded'),
    );
    assert.equal(scale.spec.reason, 'replicas changed from 3 to 5');
  });

  it('does not roll out while paused, but scales; resuming rolls out', async () => {
    const d = await deployments().get('web');
    await deployments().patch('web', 'merge', { spec: { paused: true } });
    await waitFor('DeploymentPaused', async () => condition(await deployments().get('web'), 'Progressing')?.reason === 'DeploymentPaused');
    await deployments().patch('web', 'strategic', {
      spec: { replicas: 4, template: { spec: { containers: [{ name: 'main', image: 'drover-test/busybox:2' }] } } },
    });
    await waitFor('scaled to 4 while paused', async () => {
      const sets = await setsOf(d);
      return sets.reduce((sum, rs) => sum + (rs.spec.replicas ?? 0), 0) === 4 ? sets : undefined;
    });
    const sets = await setsOf(d);
    assert.equal(sets.length, 2, 'no new set while paused');
    const busy = sets.find((rs) => (rs.spec.replicas ?? 0) > 0);
    assert.ok(JSON.stringify(busy?.spec.template).includes('busybox:1'));
    await deployments().patch('web', 'merge', { spec: { paused: false } });
    const done = await rolledOut('web');
    assert.equal(done.spec.replicas, 4);
    const active = (await setsOf(d)).filter((rs) => (rs.spec.replicas ?? 0) > 0);
    assert.equal(active.length, 1);
    assert.ok(JSON.stringify(active[0]?.spec.template).includes('busybox:2'));
  });

  it('Recreate: every old pod is gone before a new one is created', async () => {
    const created = await deployments().create(deploymentManifest('batch', 2, { strategy: { type: 'Recreate' } }));
    await rolledOut('batch');
    let overlap = false;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const pods = await podsOfDeployment(created);
        const images = new Set(pods.map((pod) => JSON.stringify(pod.spec?.['containers'])));
        if (images.size > 1) overlap = true;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await deployments().patch('batch', 'strategic', { spec: { template: { spec: { containers: [{ name: 'main', image: 'drover-test/busybox:2' }] } } } });
    await waitFor('generation 2 observed', async () => (await deployments().get('batch')).status?.observedGeneration === 2);
    await rolledOut('batch');
    sampling = false;
    await sampler;
    assert.equal(overlap, false, 'old and new pods existed at once');
  });

  it('keeps revisionHistoryLimit old ReplicaSets', async () => {
    const created = await deployments().create(deploymentManifest('hist', 1, { extra: { revisionHistoryLimit: 1 } }));
    await rolledOut('hist');
    for (const image of ['drover-test/busybox:2', 'drover-test/busybox:3', 'drover-test/busybox:4']) {
      await deployments().patch('hist', 'strategic', { spec: { template: { spec: { containers: [{ name: 'main', image }] } } } });
      await waitFor('observed', async () => {
        const d = await deployments().get('hist');
        return (d.status?.observedGeneration ?? 0) >= (d.metadata.generation ?? 0);
      });
      await rolledOut('hist');
    }
    const sets = await waitFor('two sets left', async () => {
      const found = await setsOf(created);
      return found.length === 2 ? found : undefined;
    });
    assert.deepEqual(sets.map((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision']).sort(), ['3', '4']);
  });

  it('reports ProgressDeadlineExceeded when a rollout makes no progress, failing its transaction', async () => {
    const created = await deployments().create(deploymentManifest('stuck', 1, { extra: { progressDeadlineSeconds: 2 } }));
    await rolledOut('stuck');
    await deployments().patch('stuck', 'strategic', { spec: { template: { metadata: { labels: { [STUCK_LABEL]: 'true' } } } } });
    const d = await waitFor(
      'ProgressDeadlineExceeded',
      async () => {
        const current = await deployments().get('stuck');
        return condition(current, 'Progressing')?.reason === 'ProgressDeadlineExceeded' ? current : undefined;
      },
      10_000,
    );
    assert.equal(condition(d, 'Progressing')?.status, 'False');
    assert.match(condition(d, 'Progressing')?.message ?? '', /has timed out progressing/);
    const failed = await waitFor('update Failed', async () =>
      (await transactionsOf(api, created)).find((tx) => tx.spec.operation === 'update' && tx.status?.phase === 'Failed'),
    );
    assert.match(failed.status?.message ?? '', /timed out progressing/);
  });

  it('scales proportionally in the middle of a rollout (the Kubernetes docs example)', async () => {
    const strategy = { type: 'RollingUpdate' as const, rollingUpdate: { maxSurge: 3, maxUnavailable: 2 } };
    const created = await deployments().create(deploymentManifest('prop', 10, { strategy }));
    await rolledOut('prop');
    // The new pods never become ready: the rollout stops at 8 old + 5 new.
    await deployments().patch('prop', 'strategic', { spec: { template: { metadata: { labels: { [STUCK_LABEL]: 'true' } } } } });
    const sizes = async () =>
      (await setsOf(created)).map((rs) => `${rs.spec.template?.metadata?.labels?.[STUCK_LABEL] ? 'new' : 'old'}=${rs.spec.replicas}`).sort();
    await waitFor('old 8, new 5', async () => JSON.stringify(await sizes()) === JSON.stringify(['new=5', 'old=8']));
    await deployments().patch('prop', 'merge', { spec: { replicas: 15 } });
    await waitFor('old 11, new 7', async () => JSON.stringify(await sizes()) === JSON.stringify(['new=7', 'old=11']));
    await deployments().patch('prop', 'merge', { spec: { replicas: 0 } });
    await waitFor('all 0', async () => JSON.stringify(await sizes()) === JSON.stringify(['new=0', 'old=0']));
  });

  it('counts pods available only after minReadySeconds', async () => {
    await deployments().create(deploymentManifest('patient', 2, { extra: { minReadySeconds: 2 } }));
    const early = await waitFor('two ready', async () => {
      const d = await deployments().get('patient');
      return d.status?.readyReplicas === 2 ? d : undefined;
    });
    assert.equal(early.status?.availableReplicas ?? 0, 0);
    assert.equal(condition(early, 'Available')?.status, 'False');
    const later = await rolledOut('patient', 10_000);
    assert.equal(condition(later, 'Available')?.status, 'True');
  });

  it('adopts a matching orphan ReplicaSet', async () => {
    const template = deploymentManifest('adopt', 1).spec.template;
    await replicaSets().create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'adopt-orphan', namespace: 'default', labels: { app: 'adopt' } },
      spec: { replicas: 1, selector: { matchLabels: { app: 'adopt' } }, template: structuredClone(template) },
    });
    const created = await deployments().create(deploymentManifest('adopt', 1));
    await rolledOut('adopt');
    const sets = await setsOf(created);
    assert.equal(sets.length, 1, 'the orphan with the same template became the new set');
    assert.equal(sets[0]?.metadata.name, 'adopt-orphan');
  });

  async function podsOfDeployment(d: KubeObject): Promise<Pod[]> {
    const sets = await setsOf(d);
    return (await Promise.all(sets.map((rs) => podsOf(api, rs)))).flat();
  }
});
