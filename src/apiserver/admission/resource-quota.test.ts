import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import { podResources, objectUsage } from '../../api/quota/usage.js';
import { prettyPrint } from '../../api/quota/quantity.js';
import { openTestStore, WRITE, type TestStore } from '../../../test/support/auth/rbac-store.js';
import { ApiError } from '../errors.js';
import { ObjectRegistry } from '../registry/object-registry.js';
import { AdmissionObjects } from './admission-objects.js';
import { ResourceQuotaAdmission } from './resource-quota.js';

let t: TestStore;
let registry: ObjectRegistry;
let policies: AdmissionObjects;
const pods = findResource('', 'v1', 'pods')!;
const quotas = findResource('', 'v1', 'resourcequotas')!;
const configMaps = findResource('', 'v1', 'configmaps')!;
const services = findResource('', 'v1', 'services')!;

before(async () => {
  t = await openTestStore(['a', 'b', 'c', 'd', 'e', 'f']);
  policies = new AdmissionObjects(t.store);
  await policies.start();
  registry = new ObjectRegistry(t.store, { validating: [new ResourceQuotaAdmission(t.store, policies)] });
});
after(async () => {
  policies.stop();
  registry.close();
  await t.close();
});

function podBody(name: string, resources: Record<string, unknown> = {}, spec: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'app', image: 'busybox', resources }], ...spec } } as KubeObject;
}

async function quota(namespace: string, name: string, spec: Record<string, unknown>): Promise<void> {
  await registry.create(quotas, namespace, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec }, WRITE);
}

async function refusal(write: Promise<unknown>): Promise<string> {
  try {
    await write;
  } catch (error) {
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, 403);
    return error.message;
  }
  assert.fail('the write was admitted');
}

async function used(namespace: string, name: string): Promise<Record<string, string>> {
  return ((await registry.get(quotas, namespace, name))['status'] as { used: Record<string, string> }).used;
}

describe('pod usage', () => {
  test('init containers count at their peak, sidecars alongside the containers, overhead on top', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: {
        containers: [
          { name: 'a', resources: { requests: { cpu: '100m' } } },
          { name: 'b', resources: { requests: { cpu: '200m' } } },
        ],
        initContainers: [
          { name: 'side', restartPolicy: 'Always', resources: { requests: { cpu: '50m' } } },
          { name: 'big', resources: { requests: { cpu: '1' } } },
        ],
        overhead: { cpu: '10m' },
      },
    } as KubeObject;
    assert.equal(prettyPrint(podResources(pod, 'requests')), 'cpu=1060m');
  });

  test('a pod that ended counts only under count/pods', () => {
    const pod = { ...podBody('p', { requests: { cpu: '1' } }), status: { phase: 'Succeeded' } } as KubeObject;
    assert.equal(prettyPrint(objectUsage({ group: '', plural: 'pods' }, pod, new Date())), 'count/pods=1');
    const running = podBody('p', { requests: { cpu: '1', 'nvidia.com/gpu': '2' }, limits: { cpu: '2' } });
    assert.equal(
      prettyPrint(objectUsage({ group: '', plural: 'pods' }, running, new Date())),
      'count/pods=1,cpu=1,limits.cpu=2,pods=1,requests.cpu=1,requests.nvidia.com/gpu=2',
    );
  });
});

describe('ResourceQuota admission', () => {
  test("charges status.used and refuses past the hard limit with Kubernetes' message", async () => {
    await quota('a', 'q', { hard: { pods: '2', 'requests.cpu': '1' } });
    await registry.create(pods, 'a', podBody('one', { requests: { cpu: '400m' } }), WRITE);
    assert.deepEqual(await used('a', 'q'), { pods: '1', 'requests.cpu': '400m' });
    const message = await refusal(registry.create(pods, 'a', podBody('two', { requests: { cpu: '700m' } }), WRITE));
    assert.equal(message, 'pods "two" is forbidden: exceeded quota: q, requested: requests.cpu=700m, used: requests.cpu=400m, limited: requests.cpu=1');
    await registry.create(pods, 'a', podBody('two', { requests: { cpu: '600m' } }), WRITE);
    assert.deepEqual(await used('a', 'q'), { pods: '2', 'requests.cpu': '1' });
  });

  test('a quota on compute resources needs every container to state them', async () => {
    await quota('b', 'compute', { hard: { 'limits.cpu': '2', 'requests.memory': '1Gi' } });
    const message = await refusal(registry.create(pods, 'b', podBody('bare'), WRITE));
    assert.equal(message, 'pods "bare" is forbidden: failed quota: compute: must specify limits.cpu for: app; must specify requests.memory for: app');
  });

  test('a dry run is checked but not charged', async () => {
    await quota('c', 'count', { hard: { 'count/configmaps': '1' } });
    await registry.create(configMaps, 'c', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }, { ...WRITE, dryRun: true });
    assert.equal((await registry.get(quotas, 'c', 'count'))['status'], undefined, 'nothing written');
    await registry.create(configMaps, 'c', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }, WRITE);
    const message = await refusal(registry.create(configMaps, 'c', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'y' } }, WRITE));
    assert.equal(
      message,
      'configmaps "y" is forbidden: exceeded quota: count, requested: count/configmaps=1, used: count/configmaps=1, limited: count/configmaps=1',
    );
  });

  test('scopes: a Terminating quota counts only pods with an active deadline', async () => {
    await quota('d', 'short', { hard: { pods: '1' }, scopes: ['Terminating'] });
    await registry.create(pods, 'd', podBody('long-1'), WRITE);
    await registry.create(pods, 'd', podBody('long-2'), WRITE);
    await registry.create(pods, 'd', podBody('short-1', {}, { activeDeadlineSeconds: 60 }), WRITE);
    await refusal(registry.create(pods, 'd', podBody('short-2', {}, { activeDeadlineSeconds: 60 }), WRITE));
  });

  test('Services: node ports are charged on create and when an update turns a Service into NodePort', async () => {
    await quota('f', 'ports', { hard: { services: '2', 'services.nodeports': '1' } });
    const service = (name: string, type: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { type, ports: [{ port: 80 }] } });
    await registry.create(services, 'f', service('web', 'NodePort'), WRITE);
    await registry.create(services, 'f', service('api', 'ClusterIP'), WRITE);
    assert.deepEqual(await used('f', 'ports'), { services: '2', 'services.nodeports': '1' });
    const message = await refusal(registry.patch(services, 'f', 'api', 'merge', { spec: { type: 'NodePort' } }, { ...WRITE, force: false }));
    assert.equal(
      message,
      'services "api" is forbidden: exceeded quota: ports, requested: services.nodeports=1, used: services.nodeports=1, limited: services.nodeports=1',
    );
  });

  test('concurrent creates never take more than the quota allows', async () => {
    await quota('e', 'five', { hard: { pods: '5' } });
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => registry.create(pods, 'e', podBody(`p${i}`), WRITE)));
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 5);
    for (const result of results) if (result.status === 'rejected') assert.equal((result.reason as ApiError).code, 403);
    assert.deepEqual(await used('e', 'five'), { pods: '5' });
  });
});
