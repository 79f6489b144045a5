// Custom resources as controllers use them: @kubernetes/client-node's CustomObjectsApi (create,
// list, patch, delete), its informer on a custom resource, and the garbage collector between
// custom resources and built-in objects in both directions (a full `drover server`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CoreV1Api, CustomObjectsApi, KubeConfig, makeInformer, PatchStrategy, setHeaderOptions, type KubernetesObject } from '@kubernetes/client-node';
import { useCluster } from './support/cluster-fixture.js';
import { WIDGET_CRD } from './fixtures/widget-crd.js';
import { waitFor } from './support/wait-for.js';

const cluster = useCluster();
const GROUP = 'shop.example.com';
const base = { group: GROUP, version: 'v1', namespace: 'default', plural: 'widgets' };

function config(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(cluster.server().kubeconfig);
  return kc;
}

interface Widget extends KubernetesObject {
  spec?: { image?: string; size?: string; replicas?: number };
}

describe('custom resources with @kubernetes/client-node', () => {
  it('the CRD is created and established', async () => {
    await cluster.kubectl(['apply', '-f', '-'], { input: WIDGET_CRD });
    await cluster.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.shop.example.com']);
  });

  it('CustomObjectsApi creates, lists, patches and deletes; an informer sees each change', async () => {
    const kc = config();
    const api = kc.makeApiClient(CustomObjectsApi);
    const informer = makeInformer<Widget>(kc, `/apis/${GROUP}/v1/namespaces/default/widgets`, () => api.listNamespacedCustomObject(base) as never);
    const events: string[] = [];
    informer.on('add', (w) => events.push(`add ${w.metadata?.name} ${w.spec?.size}`));
    informer.on('update', (w) => events.push(`update ${w.metadata?.name} ${w.spec?.size}`));
    informer.on('delete', (w) => events.push(`delete ${w.metadata?.name}`));
    await informer.start();
    try {
      const created = (await api.createNamespacedCustomObject({
        ...base,
        body: { apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name: 'from-node' }, spec: { image: 'busybox:1', unknown: true } },
      })) as Widget;
      assert.equal(created.spec?.size, 'medium');
      assert.equal((created.spec as Record<string, unknown>)['unknown'], undefined);
      const listed = (await api.listNamespacedCustomObject(base)) as { items: Widget[] };
      assert.deepEqual(
        listed.items.map((w) => w.metadata?.name),
        ['from-node'],
      );
      const patched = (await api.patchNamespacedCustomObject(
        { ...base, name: 'from-node', body: { spec: { size: 'large' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      )) as Widget;
      assert.equal(patched.spec?.size, 'large');
      await api.patchNamespacedCustomObject({ ...base, name: 'from-node', body: [{ op: 'replace', path: '/spec/replicas', value: 2 }] });
      await api.deleteNamespacedCustomObject({ ...base, name: 'from-node' });
      await waitFor(
        'the informer to see add, update and delete',
        async () => events.includes('add from-node medium') && events.includes('update from-node large') && events.includes('delete from-node'),
        20_000,
      );
      assert.equal(informer.list('default').length, 0);
    } finally {
      await informer.stop();
    }
  });

  it('a ConfigMap owned by a custom resource is collected when the custom resource goes', async () => {
    const kc = config();
    const api = kc.makeApiClient(CustomObjectsApi);
    const core = kc.makeApiClient(CoreV1Api);
    const owner = (await api.createNamespacedCustomObject({
      ...base,
      body: { apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name: 'owner' }, spec: { image: 'busybox:1' } },
    })) as Widget;
    // The reference names the other served version: it is the same resource.
    const ownerReferences = [{ apiVersion: `${GROUP}/v1beta1`, kind: 'Widget', name: 'owner', uid: owner.metadata!.uid! }];
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'owned-by-widget', ownerReferences }, data: { a: 'b' } } });
    await api.deleteNamespacedCustomObject({ ...base, name: 'owner' });
    await waitFor(
      'the ConfigMap collected',
      async () => !(await core.listNamespacedConfigMap({ namespace: 'default' })).items.some((cm) => cm.metadata?.name === 'owned-by-widget'),
      30_000,
    );
  });

  it('a custom resource owned by a ConfigMap is collected when the ConfigMap goes', async () => {
    const kc = config();
    const api = kc.makeApiClient(CustomObjectsApi);
    const core = kc.makeApiClient(CoreV1Api);
    const owner = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'widget-owner' } } });
    const ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'widget-owner', uid: owner.metadata!.uid! }];
    await api.createNamespacedCustomObject({
      ...base,
      body: { apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name: 'owned', ownerReferences }, spec: { image: 'busybox:1' } },
    });
    await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'widget-owner' });
    await waitFor(
      'the Widget collected',
      async () => ((await api.listNamespacedCustomObject(base)) as { items: Widget[] }).items.every((w) => w.metadata?.name !== 'owned'),
      30_000,
    );
  });
});
