// The scheduler inside `drover server`: binds pending pods to fitting nodes, explains why a pod
// fits nowhere, and retries when the cluster changes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useCluster } from './support/cluster-fixture.js';
import { pendingPod, readyNode } from './fixtures/nodes.js';
import { waitFor } from './support/wait-for.js';

const cluster = useCluster();
const PODS = '/api/v1/namespaces/default/pods';

async function nodeOf(name: string): Promise<string | undefined> {
  return (await cluster.api('GET', `${PODS}/${name}`)).body.spec?.nodeName;
}

describe('scheduler', () => {
  it('binds pods to nodes that fit, spreading UNIQUE siblings', async () => {
    for (const name of ['s-n1', 's-n2', 's-n3'])
      assert.equal((await cluster.api('POST', '/api/v1/nodes', readyNode(name, { labels: { zone: 'eu-1' } }))).status, 201);
    const unique = { 'drover.dev/constraints': '[["hostname","UNIQUE"]]' };
    for (let i = 0; i < 3; i++) {
      assert.equal((await cluster.api('POST', PODS, pendingPod(`u${i}`, { labels: { app: 'uniq' }, annotations: unique }))).status, 201);
    }
    const placed = await waitFor(
      'three pods bound',
      async () => {
        const nodes = await Promise.all([0, 1, 2].map((i) => nodeOf(`u${i}`)));
        return nodes.every(Boolean) ? nodes : undefined;
      },
      15_000,
    );
    assert.equal(new Set(placed).size, 3, `UNIQUE puts each on its own node: ${placed.join(',')}`);
    const events = await cluster.kubectl(['get', 'events', '--field-selector', 'reason=Scheduled,involvedObject.name=u0', '-o', 'name']);
    assert.match(events, /event/);
  });

  it('leaves a pod that fits nowhere Pending with the reason, and places it once a node fits', async () => {
    assert.equal((await cluster.api('POST', PODS, pendingPod('huge', { cpu: '64' }))).status, 201);
    const condition = await waitFor(
      'PodScheduled=False',
      async () => {
        const pod = (await cluster.api('GET', `${PODS}/huge`)).body;
        return pod.status?.conditions?.find((c: { type: string }) => c.type === 'PodScheduled');
      },
      15_000,
    );
    assert.equal(condition.status, 'False');
    assert.equal(condition.reason, 'Unschedulable');
    assert.match(condition.message, /0\/3 nodes are available: 3 Insufficient cpu/);
    const events = await cluster.kubectl(['get', 'events', '--field-selector', 'reason=FailedScheduling']);
    assert.match(events, /Insufficient cpu/);
    assert.equal((await cluster.api('POST', '/api/v1/nodes', readyNode('s-big', { cpu: '128' }))).status, 201);
    assert.equal(await waitFor('the big pod bound', () => nodeOf('huge'), 15_000), 's-big');
  });

  it('keeps cordoned nodes and unmatched selectors out', async () => {
    await cluster.kubectl(['cordon', 's-n1']);
    await cluster.kubectl(['cordon', 's-n2']);
    await cluster.kubectl(['cordon', 's-big']);
    assert.equal((await cluster.api('POST', PODS, pendingPod('picky'))).status, 201);
    assert.equal(await waitFor('picky bound', () => nodeOf('picky'), 15_000), 's-n3');
    assert.equal((await cluster.api('POST', PODS, pendingPod('elsewhere', { nodeSelector: { zone: 'us-1' } }))).status, 201);
    const pod = await waitFor(
      'elsewhere unschedulable',
      async () => {
        const body = (await cluster.api('GET', `${PODS}/elsewhere`)).body;
        return body.status?.conditions?.some((c: { reason?: string }) => c.reason === 'Unschedulable') ? body : undefined;
      },
      15_000,
    );
    assert.match(pod.status.conditions.find((c: { type: string }) => c.type === 'PodScheduled').message, /didn't match Pod's node affinity\/selector/);
    await cluster.kubectl(['uncordon', 's-n1']);
  });
});
