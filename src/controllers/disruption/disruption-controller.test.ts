// The disruption controller and the eviction subresource together, against an in-process API
// server: the status the controller writes, and evictions that spend it (no agent: the pods are
// unbound, so a delete removes them at once).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { ApiStatusError, resources, type ApiClient } from '../../client/index.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { startControllerTest, type ControllerTestBed } from '../../../test/support/controllers/controller-test.js';
import { replicaSetManifest } from '../../../test/support/controllers/workload-pods.js';
import { DisruptionController } from './disruption-controller.js';

interface Budget extends KubeObject {
  status?: {
    disruptionsAllowed: number;
    currentHealthy: number;
    desiredHealthy: number;
    expectedPods: number;
    disruptedPods?: Record<string, string>;
    observedGeneration?: number;
    conditions?: Array<{ type: string; status: string; reason: string }>;
  };
}

describe('disruption controller and pods/eviction', () => {
  let bed: ControllerTestBed;
  let api: ApiClient;
  let rsUid = '';
  before(async () => {
    bed = await startControllerTest((ctx) => new DisruptionController(ctx));
    api = bed.api;
    // A ReplicaSet no controller runs: only its replicas matter here.
    const rs = await api.resource(resources.replicasets, 'default').create(replicaSetManifest('web', 3));
    rsUid = rs.metadata.uid!;
  });
  after(() => bed.close());

  const pods = () => api.resource(resources.pods, 'default');
  const budgets = () => api.resource<Budget>(resources.poddisruptionbudgets, 'default');

  async function readyPod(name: string, app: string, ready = true): Promise<void> {
    const metadata: KubeObject['metadata'] = { name, labels: { app } };
    if (app === 'web') metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rsUid, controller: true }];
    const pod = await pods().create({ apiVersion: 'v1', kind: 'Pod', metadata, spec: { containers: [{ name: 'c', image: 'i' }] } });
    await pods().updateStatus({ ...pod, status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } });
  }

  const budget = (name: string, app: string, spec: Record<string, unknown>) =>
    budgets().create({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { selector: { matchLabels: { app } }, ...spec } });

  const statusOf = (name: string, check: (status: NonNullable<Budget['status']>) => boolean) =>
    waitFor(`the status of ${name}`, async () => {
      const status = (await budgets().get(name)).status;
      return status && check(status) ? status : undefined;
    });

  const evict = (name: string, deleteOptions: Record<string, unknown> = { gracePeriodSeconds: 0 }) =>
    pods()
      .createSubresource(name, 'eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name }, deleteOptions })
      .then(
        () => 201,
        (error: unknown) => {
          if (error instanceof ApiStatusError) return error;
          throw error;
        },
      );

  it('rejects a budget with both bounds', async () => {
    await assert.rejects(budget('both', 'x', { minAvailable: 1, maxUnavailable: 1 }), /minAvailable and maxUnavailable cannot be both set/);
    await assert.rejects(budget('bad', 'x', { minAvailable: '120%' }), /must not be greater than 100%/);
  });

  it("counts expected pods from the controller's replicas for a percentage", async () => {
    for (const name of ['web-1', 'web-2']) await readyPod(name, 'web');
    await budget('web', 'web', { maxUnavailable: '34%' });
    // 34% of 3 rounds up to 2 unavailable: 1 must stay healthy, 2 are.
    const status = await statusOf('web', (s) => s.currentHealthy === 2);
    assert.deepEqual([status.expectedPods, status.desiredHealthy, status.disruptionsAllowed], [3, 1, 1]);
    assert.deepEqual(
      status.conditions?.map((c) => [c.type, c.status, c.reason]),
      [['DisruptionAllowed', 'True', 'SufficientPods']],
    );
    assert.equal(status.observedGeneration, 1);
  });

  it('lets exactly one of two concurrent evictions through a budget of one, and records it', async () => {
    const results = await Promise.all([evict('web-1'), evict('web-2')]);
    assert.equal(results.filter((r) => r === 201).length, 1, JSON.stringify(results));
    const refused = results.find((r): r is ApiStatusError => r instanceof ApiStatusError)!;
    assert.equal(refused.code, 429);
    assert.equal(refused.status.reason, 'TooManyRequests');
    assert.equal(refused.message, "Cannot evict pod as it would violate the pod's disruption budget.");
    assert.deepEqual(refused.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 1 healthy pods and has 2 currently' }]);
    const status = await statusOf('web', (s) => s.currentHealthy === 1);
    assert.equal(status.disruptionsAllowed, 0);
    assert.deepEqual(
      status.conditions?.map((c) => c.reason),
      ['InsufficientPods'],
    );
  });

  it('lets the remaining pod go once a replacement is healthy; a dry run changes nothing', async () => {
    await readyPod('web-3', 'web');
    await statusOf('web', (s) => s.disruptionsAllowed === 1);
    const survivor = (await pods().list({ labelSelector: 'app=web' })).items.map((p) => p.metadata.name).find((n) => n !== 'web-3')!;
    assert.equal(await evict(survivor, { dryRun: ['All'] }), 201);
    assert.ok(await pods().get(survivor));
    assert.equal((await budgets().get('web')).status?.disruptionsAllowed, 1);
    assert.equal(await evict(survivor), 201);
  });

  it('an unhealthy pod goes while the budget is met, or always under AlwaysAllow', async () => {
    await readyPod('db-1', 'db');
    await readyPod('db-2', 'db');
    await readyPod('db-sick', 'db', false);
    await budget('db', 'db', { minAvailable: 2 });
    await statusOf('db', (s) => s.currentHealthy === 2 && s.expectedPods === 3);
    // Ready pods: none to spare. The unready one: the budget is met without it.
    assert.equal(((await evict('db-1')) as ApiStatusError).code, 429);
    assert.equal(await evict('db-sick'), 201);
    await readyPod('db-sick-2', 'db', false);
    await budgets().patch('db', 'merge', { spec: { minAvailable: 3 } });
    await statusOf('db', (s) => s.desiredHealthy === 3 && s.observedGeneration === 2);
    assert.equal(((await evict('db-sick-2')) as ApiStatusError).code, 429, 'IfHealthyBudget: the budget is not met');
    await budgets().patch('db', 'merge', { spec: { unhealthyPodEvictionPolicy: 'AlwaysAllow' } });
    await statusOf('db', (s) => s.observedGeneration === 3);
    assert.equal(await evict('db-sick-2'), 201);
  });

  it('refuses a pod that two budgets select', async () => {
    await budget('db-too', 'db', { maxUnavailable: 1 });
    const refused = (await evict('db-2')) as ApiStatusError;
    assert.equal(refused.code, 500);
    assert.equal(refused.message, 'Internal error occurred: This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
  });

  it('fails safe when a percentage cannot be sized: a pod without a known controller', async () => {
    await readyPod('job-1', 'batch');
    const pod = await pods().get('job-1');
    await pods().update({
      ...pod,
      metadata: { ...pod.metadata, ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'j', uid: 'u-j', controller: true }] },
    });
    await budget('batch', 'batch', { minAvailable: '50%' });
    const status = await statusOf('batch', (s) => (s.conditions ?? []).some((c) => c.reason === 'SyncFailed'));
    assert.equal(status.disruptionsAllowed, 0);
  });
});
