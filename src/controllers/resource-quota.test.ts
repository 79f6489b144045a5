// The resource quota controller against a real API server: status.hard and status.used from the
// namespace's objects when a quota appears or its spec changes, and again after a deletion.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/meta.js';
import { resources } from '../client/index.js';
import { ResourceQuotaController } from './resource-quota.js';
import { useControllerTest } from '../../test/support/controllers/controller-test.js';
import { waitFor } from '../../test/support/wait-for.js';

describe('resource quota controller', () => {
  const bed = useControllerTest((ctx) => new ResourceQuotaController(ctx));

  const pod = (name: string, cpu: string, phase?: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'app', image: 'busybox', resources: { requests: { cpu }, limits: { cpu } } }] },
    ...(phase ? { status: { phase } } : {}),
  });

  const statusWhen = (name: string, wanted: (status: any) => boolean) =>
    waitFor(`status of ${name}`, async () => {
      const quota = await bed.api.resource(resources.resourcequotas, 'default').get(name);
      return wanted(quota['status']) ? (quota['status'] as any) : undefined;
    });

  it("fills status from the namespace's objects, follows spec changes and frees what deleted objects used", async () => {
    const pods = bed.api.resource(resources.pods, 'default');
    await pods.create(pod('a', '250m'));
    await pods.create(pod('b', '500m'));
    await bed.api.resource(resources.configmaps, 'default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });
    await bed.api.resource(resources.resourcequotas, 'default').create({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'q' },
      spec: { hard: { pods: '10', 'requests.cpu': '2', 'limits.cpu': '4', 'count/configmaps': '5' } },
    });
    const first = await statusWhen('q', (status) => status?.used?.pods === '2');
    assert.deepEqual(first.hard, { pods: '10', 'requests.cpu': '2', 'limits.cpu': '4', 'count/configmaps': '5' });
    assert.equal(first.used['requests.cpu'], '750m');
    assert.equal(first.used['limits.cpu'], '750m');
    assert.ok(Number(first.used['count/configmaps']) >= 1);

    const quota = await bed.api.resource(resources.resourcequotas, 'default').get('q');
    (quota['spec'] as any).hard = { pods: '3', services: '1' };
    await bed.api.resource(resources.resourcequotas, 'default').update(quota);
    const changed = await statusWhen('q', (status) => status?.hard?.pods === '3');
    assert.deepEqual(changed.used, { pods: '2', services: '0' });

    await pods.delete('a');
    await statusWhen('q', (status) => status?.used?.pods === '1');

    // A pod that ended no longer counts.
    const b = await pods.get('b');
    b['status'] = { ...(b['status'] as object), phase: 'Succeeded' };
    await pods.updateStatus(b);
    await statusWhen('q', (status) => status?.used?.pods === '0');
  });
});
