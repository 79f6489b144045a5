// The official JavaScript client (@kubernetes/client-node 1.x) against `drover server`, with the
// kubeconfig the server writes, unchanged: it verifies the server with the cluster CA and
// authenticates with the admin's client certificate, as with any Kubernetes cluster.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppsV1Api, CoreV1Api, KubeConfig, Watch } from '@kubernetes/client-node';
import { useCluster } from './support/cluster-fixture.js';
import { waitFor } from './support/wait-for.js';

const cluster = useCluster({ extraArgs: ['--no-control-plane'] });

function client(): KubeConfig {
  const config = new KubeConfig();
  config.loadFromFile(cluster.server().kubeconfig);
  return config;
}

describe('@kubernetes/client-node with the kubeconfig Drover writes', () => {
  it('lists, creates (without apiVersion and kind, as its README does) and reads', async () => {
    const core = client().makeApiClient(CoreV1Api);
    const namespaces = await core.listNamespace();
    assert.ok(namespaces.items.some((ns) => ns.metadata?.name === 'kube-system'));
    await core.createNamespace({ body: { metadata: { name: 'official' } } });
    await core.createNamespacedConfigMap({ namespace: 'official', body: { metadata: { name: 'settings' }, data: { mode: 'fast' } } });
    const read = await core.readNamespacedConfigMap({ namespace: 'official', name: 'settings' });
    assert.equal(read.data?.['mode'], 'fast');
    const apps = client().makeApiClient(AppsV1Api);
    assert.deepEqual((await apps.listNamespacedDeployment({ namespace: 'official' })).items, []);
  });

  it('watches with the same credentials', async () => {
    const config = client();
    const seen: string[] = [];
    const request = await new Watch(config).watch(
      '/api/v1/namespaces/official/configmaps',
      {},
      (type, object: { metadata?: { name?: string } }) => {
        seen.push(`${type} ${object.metadata?.name ?? ''}`);
      },
      () => undefined,
    );
    try {
      await config.makeApiClient(CoreV1Api).createNamespacedConfigMap({ namespace: 'official', body: { metadata: { name: 'watched' } } });
      await waitFor(
        'the watch to see the ConfigMap added',
        () => {
          assert.ok(seen.includes('ADDED watched'), `seen: ${seen.join(', ')}`);
          return true;
        },
        5_000,
      );
    } finally {
      request.abort();
    }
  });
});
