// Node lifecycle with short timeouts: a node whose Lease goes stale becomes Ready=Unknown with
// the unreachable taints, its pods are deleted after the eviction timeout, and a renewed
// Lease removes the taints again.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { resources, type ApiClient } from '../src/client/index.js';
import { NodeLifecycleController } from '../src/controllers/node-lifecycle.js';
import { TestServer } from './support/apiserver/in-process-server.js';
import { readyNode } from './fixtures/nodes.js';
import { waitFor } from './support/wait-for.js';

const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('node lifecycle', () => {
  let server: TestServer;
  let api: ApiClient;
  let controller: NodeLifecycleController;

  before(async () => {
    server = await TestServer.start({ serviceAccountTokens: true });
    api = server.client();
    controller = new NodeLifecycleController({ api, gracePeriodSeconds: 1, podEvictionTimeoutSeconds: 1, monitorPeriodMs: 200 });
  });
  after(async () => {
    await controller.stop();
    await server.close();
  });

  const renewLease = (name: string) =>
    api.resource(resources.leases, 'kube-node-lease').patch(
      name,
      'apply',
      {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name, namespace: 'kube-node-lease' },
        spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: rfc3339(Date.now()) },
      },
      { fieldManager: 'test-agent', force: true },
    );

  it('taints a silent node, evicts its pods, and untaints it when it comes back', async () => {
    await api.resource(resources.nodes).create(readyNode('quiet') as never);
    await renewLease('quiet');
    await api.resource(resources.pods, 'default').create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'stranded' },
      spec: { nodeName: 'quiet', terminationGracePeriodSeconds: 1, containers: [{ name: 'c', image: 'drover-test/busybox:1' }] },
    } as never);
    // A DaemonSet's pod tolerates the unreachable taint without a time limit: it stays.
    await api.resource(resources.pods, 'default').create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'daemon' },
      spec: {
        nodeName: 'quiet',
        terminationGracePeriodSeconds: 1,
        containers: [{ name: 'c', image: 'drover-test/busybox:1' }],
        tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }],
      },
    } as never);
    await controller.start();

    const node = await waitFor(
      'the unreachable taint',
      async () => {
        const n = await api.resource(resources.nodes).get('quiet');
        return (n['spec'] as { taints?: unknown[] }).taints?.length ? n : undefined;
      },
      10_000,
    );
    const taints = (node['spec'] as { taints: Array<{ key: string; effect: string }> }).taints;
    assert.deepEqual(taints.map((t) => `${t.key}:${t.effect}`).sort(), [
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/unreachable:NoSchedule',
    ]);
    const ready = (node['status'] as { conditions: Array<{ type: string; status: string }> }).conditions.find((c) => c.type === 'Ready');
    assert.equal(ready?.status, 'Unknown');

    await waitFor(
      'the stranded pod to be deleted',
      async () => {
        try {
          await api.resource(resources.pods, 'default').get('stranded');
          return false;
        } catch {
          return true;
        }
      },
      15_000,
    );
    const daemon = await api.resource(resources.pods, 'default').get('daemon');
    assert.equal(daemon.metadata.deletionTimestamp, undefined, 'the tolerating pod stays');

    // The agent is back: it renews its Lease well within the grace period.
    const heartbeat = setInterval(() => void renewLease('quiet'), 250);
    try {
      await waitFor(
        'the taints to go',
        async () => {
          const spec = (await api.resource(resources.nodes).get('quiet'))['spec'] as { taints?: unknown[] } | undefined;
          return !spec?.taints?.length;
        },
        10_000,
      );
    } finally {
      clearInterval(heartbeat);
    }
  });
});
