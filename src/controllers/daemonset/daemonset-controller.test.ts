// The DaemonSet controller against a real API server. No agents run here: the test plays them
// by writing pod status through the API (daemon pods stay unbound; their affinity names the node).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { metaTime, type KubeObject } from '../../api/meta.js';
import { resources, type ApiClient } from '../../client/index.js';
import { startControllerTest, type ControllerTestBed } from '../../../test/support/controllers/controller-test.js';
import { DaemonSetController } from './daemonset-controller.js';
import { targetNode } from './daemon-pod.js';
import type { DaemonSet } from './types.js';
import { waitFor } from '../../../test/support/wait-for.js';
import type { Node, Pod, Taint, Toleration } from '../../api/core/index.js';
import { transactionsOf } from '../../../test/support/controllers/transactions.js';
import { setPodPhase, startFakeAgent, type FakeAgent } from '../../../test/support/controllers/workload-pods.js';

describe('daemonset controller', () => {
  let bed: ControllerTestBed;
  let api: ApiClient;
  let agent: FakeAgent;
  /** Nodes whose pods the fake agent leaves alone (not ready). */
  const holdBack = new Set<string>();

  const dsClient = () => api.resource<DaemonSet>(resources.daemonsets, 'default');
  const podClient = () => api.resource<Pod>(resources.pods, 'default');
  const nodeClient = () => api.resource<Node>(resources.nodes);

  before(async () => {
    bed = await startControllerTest((ctx) => new DaemonSetController(ctx, { failedPodBackoffMs: { initial: 50, max: 200 } }));
    api = bed.api;
    // Daemon pods stay unbound, and deleted ones terminating: the tests count them.
    agent = startFakeAgent(api, {
      bind: false,
      confirmDeletions: false,
      skip: (pod) => holdBack.has(targetNode(pod) ?? '') || pod.status?.phase === 'Failed',
    });
  });
  after(async () => {
    await agent.stop();
    await bed.close();
  });

  async function addNode(name: string, labels: Record<string, string> = {}, taints: Taint[] = []): Promise<void> {
    await nodeClient().create({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels }, spec: taints.length ? { taints } : {} });
    await nodeClient().patch(
      name,
      'merge',
      { status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: metaTime(), lastTransitionTime: metaTime() }] } },
      { subresource: 'status' },
    );
  }

  function manifest(
    name: string,
    extra: { nodeSelector?: Record<string, string>; image?: string; strategy?: DaemonSet['spec']['updateStrategy']; tolerations?: Toleration[] } = {},
  ): DaemonSet {
    return {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name, namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: name } },
        ...(extra.strategy ? { updateStrategy: extra.strategy } : {}),
        template: {
          metadata: { labels: { app: name } },
          spec: {
            containers: [{ name: 'main', image: extra.image ?? 'drover-test/busybox:1', command: ['sleep', '3600'] }],
            ...(extra.nodeSelector ? { nodeSelector: extra.nodeSelector } : {}),
            ...(extra.tolerations ? { tolerations: extra.tolerations } : {}),
          },
        },
      },
    };
  }

  async function livePods(ds: KubeObject): Promise<Pod[]> {
    return (await podClient().list()).items.filter((p) => p.metadata.ownerReferences?.some((r) => r.uid === ds.metadata.uid) && !p.metadata.deletionTimestamp);
  }

  async function nodesOf(ds: KubeObject): Promise<string[]> {
    return (await livePods(ds)).map((p) => targetNode(p) ?? '?').sort();
  }

  const statusOf = async (name: string) => (await dsClient().get(name)).status ?? {};

  it('runs one pod per node, pinned by node affinity and tolerating what daemon pods tolerate', async () => {
    await addNode('node-a', { disk: 'ssd' });
    await addNode('node-b', { disk: 'hdd' });
    const ds = await dsClient().create(manifest('logs'));
    await waitFor('a pod on each node', async () => (await nodesOf(ds)).join() === 'node-a,node-b');
    const [pod] = await livePods(ds);
    assert.deepEqual(
      pod!.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]?.matchFields?.[0]?.key,
      'metadata.name',
    );
    assert.match(pod!.metadata.labels?.['controller-revision-hash'] ?? '', /^[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.ok(pod!.spec.tolerations?.some((t) => t.key === 'node.kubernetes.io/not-ready' && t.effect === 'NoExecute'));
    assert.ok(pod!.metadata.name?.startsWith('logs-'));
    const status = await waitFor('two available pods', async () => {
      const s = await statusOf('logs');
      return s.numberAvailable === 2 ? s : undefined;
    });
    assert.deepEqual(
      [
        status.desiredNumberScheduled,
        status.currentNumberScheduled,
        status.numberReady,
        status.updatedNumberScheduled,
        status.numberAvailable,
        status.numberUnavailable,
        status.numberMisscheduled,
        status.observedGeneration,
      ],
      [2, 2, 2, 2, 2, 0, 0, 1],
    );
    const launch = await waitFor('launch Succeeded', async () => (await transactionsOf(api, ds, 'launch')).find((tx) => tx.status?.phase === 'Succeeded'));
    assert.equal(launch.status?.progress, '2/2');
  });

  it('follows nodes as they join, leave and change', async () => {
    const ds = await dsClient().get('logs');
    await addNode('node-c');
    await waitFor('a pod on the new node', async () => (await nodesOf(ds)).join() === 'node-a,node-b,node-c');
    await nodeClient().delete('node-c');
    await waitFor('the pod of the deleted node gone', async () => (await nodesOf(ds)).join() === 'node-a,node-b');

    const ssd = await dsClient().create(manifest('cache', { nodeSelector: { disk: 'ssd' } }));
    await waitFor('only on the ssd node', async () => (await nodesOf(ssd)).join() === 'node-a');
    await nodeClient().patch('node-b', 'merge', { metadata: { labels: { disk: 'ssd' } } });
    await waitFor('on node-b once relabelled', async () => (await nodesOf(ssd)).join() === 'node-a,node-b');
    await nodeClient().patch('node-b', 'merge', { metadata: { labels: { disk: 'hdd' } } });
    await waitFor('off node-b again', async () => (await nodesOf(ssd)).join() === 'node-a');
    await waitFor('desired 1', async () => (await statusOf('cache')).desiredNumberScheduled === 1);
  });

  it('keeps off tainted nodes unless tolerated, and leaves on NoExecute', async () => {
    await addNode('node-gpu', {}, [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }]);
    const plain = await dsClient().get('logs');
    const gpu = await dsClient().create(manifest('gpu-plugin', { tolerations: [{ key: 'gpu', operator: 'Exists' }] }));
    await waitFor('the tolerating set everywhere', async () => (await nodesOf(gpu)).join() === 'node-a,node-b,node-gpu');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await nodesOf(plain)).join(), 'node-a,node-b');
    await nodeClient().patch('node-gpu', 'merge', {
      spec: {
        taints: [
          { key: 'gpu', value: 'true', effect: 'NoSchedule' },
          { key: 'maintenance', effect: 'NoExecute' },
        ],
      },
    });
    await waitFor('evicted by the NoExecute taint', async () => (await nodesOf(gpu)).join() === 'node-a,node-b');
    await nodeClient().delete('node-gpu');
    await dsClient().delete('gpu-plugin');
  });

  it('replaces a failed daemon pod and records the reschedule', async () => {
    const ds = await dsClient().get('logs');
    const [victim] = (await livePods(ds)).filter((p) => targetNode(p) === 'node-a');
    await setPodPhase(api, victim!, 'Failed');
    const replacement = await waitFor('a replacement on node-a', async () =>
      (await livePods(ds)).find((p) => targetNode(p) === 'node-a' && p.metadata.uid !== victim!.metadata.uid),
    );
    assert.ok(replacement);
    const tx = await waitFor('reschedule Succeeded', async () => (await transactionsOf(api, ds, 'reschedule')).find((t) => t.status?.phase === 'Succeeded'));
    assert.match(tx.spec.reason, /node-a/);
  });

  it('rolls a template change out one node at a time', async () => {
    const ds = await dsClient().create(manifest('roll'));
    await waitFor('roll available', async () => (await statusOf('roll')).numberAvailable === 2);
    const oldHash = (await livePods(ds))[0]!.metadata.labels?.['controller-revision-hash'];
    holdBack.add('node-a').add('node-b'); // new pods stay unready until released
    await dsClient().patch('roll', 'merge', {
      spec: { template: { spec: { containers: [{ name: 'main', image: 'drover-test/busybox:2', command: ['sleep', '3600'] }] } } },
    });
    const first = await waitFor('one node updated', async () => {
      const pods = await livePods(ds);
      const updated = pods.filter((p) => p.metadata.labels?.['controller-revision-hash'] !== oldHash);
      return updated.length === 1 && pods.length === 2 ? updated[0] : undefined;
    });
    // maxUnavailable 1: while the new pod is not ready, the other node keeps its old pod.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await livePods(ds)).filter((p) => p.metadata.labels?.['controller-revision-hash'] === oldHash).length, 1);
    assert.equal((await statusOf('roll')).updatedNumberScheduled, 1);
    holdBack.clear();
    await waitFor('rolled out', async () => {
      const s = await statusOf('roll');
      return s.updatedNumberScheduled === 2 && s.numberAvailable === 2 && s.observedGeneration === 2;
    });
    assert.ok(first);
    const steps = await waitFor('two update steps Succeeded', async () => {
      const txs = await transactionsOf(api, ds, 'update');
      return txs.length === 2 && txs.every((t) => t.status?.phase === 'Succeeded') ? txs : undefined;
    });
    assert.deepEqual(
      steps.map((t) => t.status?.progress),
      ['1/1', '1/1'],
    );
  });

  it('with maxSurge, starts the new pod beside the old one and removes the old one once it is ready', async () => {
    const ds = await dsClient().create(manifest('surge', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } }));
    await waitFor('surge available', async () => (await statusOf('surge')).numberAvailable === 2);
    const oldHash = (await livePods(ds))[0]!.metadata.labels?.['controller-revision-hash'];
    holdBack.add('node-a').add('node-b');
    await dsClient().patch('surge', 'merge', { spec: { template: { metadata: { labels: { app: 'surge', v: '2' } } } } });
    const surged = await waitFor('three pods: one node runs old and new', async () => {
      const pods = await livePods(ds);
      return pods.length === 3 ? pods : undefined;
    });
    const node = targetNode(surged.find((p) => p.metadata.labels?.['controller-revision-hash'] !== oldHash)!);
    assert.equal(surged.filter((p) => targetNode(p) === node).length, 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await livePods(ds)).length, 3, 'no second surge while the first new pod is not ready');
    holdBack.clear();
    await waitFor('rolled out with surge', async () => {
      const s = await statusOf('surge');
      return s.updatedNumberScheduled === 2 && s.numberAvailable === 2 && (await livePods(ds)).length === 2;
    });
  });

  it('with OnDelete, replaces only the pods deleted by hand', async () => {
    const ds = await dsClient().create(manifest('manual', { strategy: { type: 'OnDelete' } }));
    await waitFor('manual available', async () => (await statusOf('manual')).numberAvailable === 2);
    const before = await livePods(ds);
    await dsClient().patch('manual', 'merge', { spec: { template: { metadata: { labels: { app: 'manual', v: '2' } } } } });
    await waitFor('generation 2 observed', async () => (await statusOf('manual')).observedGeneration === 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual((await livePods(ds)).map((p) => p.metadata.uid).sort(), before.map((p) => p.metadata.uid).sort());
    assert.equal((await statusOf('manual')).updatedNumberScheduled, 0);
    await podClient().delete(before[0]!.metadata.name!);
    await waitFor('one pod of the new template', async () => (await statusOf('manual')).updatedNumberScheduled === 1);
    const fresh = (await livePods(ds)).find((p) => p.metadata.labels?.['v'] === '2');
    assert.equal(targetNode(fresh!), targetNode(before[0]!));
  });
});
