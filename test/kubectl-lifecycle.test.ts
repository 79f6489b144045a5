// Objects' lifecycles through kubectl: create subcommands, delete with namespace cascade,
// dry runs, and a server restart (clean and kill -9) that keeps every object and the revision.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, requireKubectl } from './support/kubectl.js';
import { useCluster } from './support/cluster-fixture.js';
import { startServerProcess } from './support/server-process.js';
import { deploymentYaml } from './fixtures/deployment.js';
import { waitFor } from './support/wait-for.js';

const cluster = useCluster();

describe('kubectl create and delete', () => {
  it('creates a namespace, a configmap and a secret', async () => {
    await cluster.kubectl(['create', 'namespace', 'team']);
    await cluster.kubectl(['-n', 'team', 'create', 'configmap', 'settings', '--from-literal=mode=fast']);
    await cluster.kubectl(['-n', 'team', 'create', 'secret', 'generic', 'creds', '--from-literal=password=hunter2']);
    assert.equal(await cluster.kubectl(['-n', 'team', 'get', 'cm/settings', '-o', 'jsonpath={.data.mode}']), 'fast');
    const encoded = await cluster.kubectl(['-n', 'team', 'get', 'secret/creds', '-o', 'jsonpath={.data.password}']);
    assert.equal(Buffer.from(encoded, 'base64').toString(), 'hunter2');
    const duplicate = await cluster.kubectlRaw(['create', 'namespace', 'team']);
    assert.match(duplicate.stderr, /AlreadyExists|already exists/);
  });

  it('deletes a namespace and everything in it', async () => {
    await cluster.kubectl(['create', 'namespace', 'doomed']);
    await cluster.kubectl(['-n', 'doomed', 'apply', '-f', '-'], { input: deploymentYaml() });
    await cluster.kubectl(['-n', 'doomed', 'create', 'configmap', 'c', '--from-literal=a=b']);
    await cluster.kubectl(['delete', 'namespace', 'doomed', '--wait=true', '--timeout=30s']);
    const gone = await cluster.kubectlRaw(['get', 'namespace', 'doomed']);
    assert.match(gone.stderr, /NotFound|not found/);
    const leftovers = await cluster.api('GET', '/apis/apps/v1/deployments');
    assert.equal(leftovers.body.items.filter((d: { metadata: { namespace: string } }) => d.metadata.namespace === 'doomed').length, 0);
    const refused = await cluster.kubectlRaw(['-n', 'doomed', 'create', 'configmap', 'late', '--from-literal=a=b']);
    assert.notEqual(refused.code, 0);
  });

  it('keeps objects with finalizers until the finalizers are removed', async () => {
    await cluster.kubectl(['create', 'configmap', 'held', '--from-literal=a=b']);
    await cluster.kubectl(['patch', 'cm/held', '--type=merge', '-p', '{"metadata":{"finalizers":["example.com/hold"]}}']);
    await cluster.kubectl(['delete', 'cm/held', '--wait=false']);
    assert.notEqual(await cluster.kubectl(['get', 'cm/held', '-o', 'jsonpath={.metadata.deletionTimestamp}']), '');
    await cluster.kubectl(['patch', 'cm/held', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']);
    await waitFor('the configmap to go', async () => (await cluster.kubectlRaw(['get', 'cm/held'])).code !== 0, 5000);
  });

  it('changes nothing on --dry-run=server', async () => {
    const out = await cluster.kubectl(['create', 'configmap', 'dry', '--from-literal=a=b', '--dry-run=server', '-o', 'name']);
    assert.equal(out.trim(), 'configmap/dry');
    assert.notEqual((await cluster.kubectlRaw(['get', 'cm/dry'])).code, 0);
  });
});

describe('server restarts', () => {
  it('keeps every object and the revision across SIGTERM and kill -9', async () => {
    requireKubectl();
    const first = await startServerProcess();
    try {
      await kubectl(first.kubeconfig, ['apply', '-f', '-'], { input: deploymentYaml({ name: 'durable' }) });
      await kubectl(first.kubeconfig, ['create', 'configmap', 'kept', '--from-literal=k=v']);
      const before = await kubectl(first.kubeconfig, ['get', 'cm/kept', '-o', 'jsonpath={.metadata.resourceVersion}']);
      assert.equal(await first.stop('SIGTERM'), 0);

      const second = await startServerProcess({ dataDir: first.dataDir });
      await kubectl(second.kubeconfig, ['create', 'configmap', 'after-restart', '--from-literal=k=v']);
      const after = Number(await kubectl(second.kubeconfig, ['get', 'cm/after-restart', '-o', 'jsonpath={.metadata.resourceVersion}']));
      assert.ok(after > Number(before), `revision went on: ${before} → ${after}`);
      assert.equal(await kubectl(second.kubeconfig, ['get', 'deploy/durable', '-o', 'jsonpath={.spec.replicas}']), '2');
      await second.stop('SIGKILL');

      const third = await startServerProcess({ dataDir: first.dataDir });
      assert.equal(await kubectl(third.kubeconfig, ['get', 'cm/after-restart', '-o', 'jsonpath={.data.k}']), 'v');
      await third.stop();
    } finally {
      await first.cleanup();
    }
  });
});
