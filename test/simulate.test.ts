// `drover simulate` against a server with its control plane: 50 hollow nodes register Ready
// and renew their Leases, the real scheduler and controllers run a Deployment of 200 replicas
// on them, deleting it finalises the pods long before their 30 s grace period, and stopping
// the simulation makes the nodes NotReady once the (short) grace period has passed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { useCluster } from './support/cluster-fixture.js';
import { startDroverProcess, type DroverProcess } from './support/drover-process.js';
import { waitFor } from './support/wait-for.js';

const NODES = 50;
const REPLICAS = 200;

interface Condition {
  type: string;
  status: string;
}
interface NodeItem {
  metadata: { name: string };
  status: { conditions: Condition[]; addresses: Array<{ type: string; address: string }>; capacity: Record<string, string> };
}
interface PodItem {
  metadata: { name: string; deletionTimestamp?: string };
  spec: { nodeName?: string };
  status: { phase?: string; podIP?: string; hostIP?: string };
}

const ready = (node: NodeItem) => node.status.conditions.find((c) => c.type === 'Ready')?.status;

describe('drover simulate', () => {
  // The node lifecycle controller calls a node unreachable 5 s after its last Lease renewal
  // (the nodes renew every second: a busy machine does not make them flap).
  const cluster = useCluster({ extraArgs: ['--node-monitor-grace-period', '5'] });
  let simulation: DroverProcess | undefined;

  before(async () => {
    simulation = await startDroverProcess(
      ['simulate', '--nodes', String(NODES), '--kubeconfig', cluster.server().kubeconfig, '--lease-renew-interval', '1'],
      `${NODES} hollow nodes ready`,
    );
  });
  after(async () => {
    await simulation?.stop();
  });

  const hollowNodes = async (): Promise<NodeItem[]> => (await cluster.api('GET', '/api/v1/nodes?labelSelector=drover.dev%2Fhollow%3Dtrue')).body.items;
  const webPods = async (): Promise<PodItem[]> => (await cluster.api('GET', '/api/v1/namespaces/default/pods?labelSelector=app%3Dweb')).body.items;

  it('registers the nodes Ready, on loopback, and renews their Leases', async () => {
    const nodes = await hollowNodes();
    assert.equal(nodes.length, NODES);
    assert.deepEqual(
      nodes.filter((n) => ready(n) !== 'True').map((n) => n.metadata.name),
      [],
    );
    assert.deepEqual(new Set(nodes.map((n) => n.status.addresses.find((a) => a.type === 'InternalIP')?.address)), new Set(['127.0.0.1']));
    assert.equal(nodes[0]!.status.capacity['pods'], '110');
    const renewTime = async () =>
      (await cluster.api('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/hollow-7')).body.spec.renewTime as string;
    const first = await renewTime();
    await waitFor('the Lease of hollow-7 to be renewed', async () => (await renewTime()) > first, 5_000);
  });

  it('runs a Deployment on the hollow nodes with the real scheduler and controllers, and finalises its deleted pods', async () => {
    await cluster.kubectl(['create', 'deployment', 'web', '--image=drover-test/busybox:1', `--replicas=${REPLICAS}`]);
    await waitFor(
      `${REPLICAS} available replicas`,
      async () => {
        const deployment = await cluster.api('GET', '/apis/apps/v1/namespaces/default/deployments/web');
        return deployment.body.status?.availableReplicas === REPLICAS;
      },
      40_000,
    );
    const pods = await webPods();
    assert.equal(pods.length, REPLICAS);
    assert.deepEqual(
      pods.filter((p) => p.status.phase !== 'Running' || !p.spec.nodeName?.startsWith('hollow-')).map((p) => p.metadata.name),
      [],
    );
    assert.ok(new Set(pods.map((p) => p.spec.nodeName)).size > NODES / 2, 'the scheduler spreads the pods over the nodes');
    // Pod IPs are loopback addresses, unique per pod: nothing dialled leaves the machine.
    assert.deepEqual(
      pods.filter((p) => !p.status.podIP?.startsWith('127.') || p.status.hostIP !== '127.0.0.1').map((p) => p.metadata.name),
      [],
    );
    assert.equal(new Set(pods.map((p) => p.status.podIP)).size, REPLICAS);

    const deletedAt = Date.now();
    await cluster.kubectl(['delete', 'deployment', 'web']);
    // Each pod has 30 s of grace: gone well before that means the hollow node finalised it.
    await waitFor('the pods to be finalised', async () => (await webPods()).length === 0, 20_000);
    assert.ok(Date.now() - deletedAt < 20_000);
  });

  it('leaves the nodes NotReady once the simulation stops', async () => {
    await simulation!.stop();
    simulation = undefined;
    // The grace period (5 s) and the node lifecycle controller's 5 s pass.
    await waitFor('every hollow node NotReady', async () => (await hollowNodes()).every((n) => ready(n) === 'Unknown'), 30_000);
  });
});
