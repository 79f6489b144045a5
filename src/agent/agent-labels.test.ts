// Two clusters share one engine, with the same node name and a pod of the same namespace/name
// each, beside a container of an older Drover that carries no cluster label: each agent's
// orphan scan and resolver see only their own cluster's objects, and nobody sees the old one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CLUSTER_LABEL, NODE_LABEL, ownerFilter, ownerLabels, podFilter, type Owner } from './agent-labels.js';
import { createResolver } from './container-resolver.js';
import type { RuntimeSet } from './pods/deps.js';
import { podUidsInRuntime } from './pods/observe.js';
import { POD_UID } from './runtime/labels.js';
import { FakeRuntime } from '../../test/support/agent/fake-runtime.js';
import type { Pod } from '../api/core/index.js';

const A: Owner = { clusterId: 'cluster-a', nodeName: 'node-1' };
const B: Owner = { clusterId: 'cluster-b', nodeName: 'node-1' };

function twinPod(uid: string): { uid: string; name: string; namespace: string } {
  return { uid, name: 'twin', namespace: 'default' };
}

/** The pod's sandbox and container in the fake engine, labelled as `owner`'s agent labels them. */
function addPodObjects(fake: FakeRuntime, uid: string, labels: Record<string, string>): string {
  fake.addSandbox(twinPod(uid), 0);
  const id = fake.addContainer(twinPod(uid), 'main', 0);
  for (const object of [fake.sandboxes.at(-1)!, fake.containers.at(-1)!]) Object.assign(object.labels, labels);
  return id;
}

function sharedEngine(): { fake: FakeRuntime; containerOf: Record<string, string> } {
  const fake = new FakeRuntime();
  const containerOf = {
    a: addPodObjects(fake, 'uid-a', ownerLabels(A)),
    b: addPodObjects(fake, 'uid-b', ownerLabels(B)),
    old: addPodObjects(fake, 'uid-old', { [NODE_LABEL]: 'node-1' }),
  };
  return { fake, containerOf };
}

function apiPod(uid: string): Pod {
  return { metadata: { uid, name: 'twin', namespace: 'default' }, spec: { containers: [{ name: 'main' }] } } as Pod;
}

function runtimeSet(fake: FakeRuntime): RuntimeSet {
  const runtime = fake.asRuntime();
  return { primary: runtime, process: undefined, all: () => [runtime], forPod: () => runtime };
}

describe('agent labels', () => {
  it('name the cluster and the node, and a pod filter cannot be widened by its extra labels', () => {
    assert.deepEqual(ownerFilter(A), { labels: { [CLUSTER_LABEL]: 'cluster-a', [NODE_LABEL]: 'node-1' }, all: true });
    const filter = podFilter(A, 'uid-a', { [CLUSTER_LABEL]: 'cluster-b', [POD_UID]: 'uid-b', extra: 'x' });
    assert.deepEqual(filter.labels, { [CLUSTER_LABEL]: 'cluster-a', [NODE_LABEL]: 'node-1', [POD_UID]: 'uid-a', extra: 'x' });
  });

  it("the orphan scan finds only its own cluster's pods, never another cluster's or an unlabelled one", async () => {
    const runtime = sharedEngine().fake.asRuntime();
    assert.deepEqual([...(await podUidsInRuntime(runtime, A))], ['uid-a']);
    assert.deepEqual([...(await podUidsInRuntime(runtime, B))], ['uid-b']);
  });

  it("the resolver finds its own cluster's container of a pod whose namespace/name the other cluster shares", async () => {
    const { fake, containerOf } = sharedEngine();
    for (const [owner, uid, expected] of [
      [A, 'uid-a', containerOf.a],
      [B, 'uid-b', containerOf.b],
    ] as const) {
      const resolver = createResolver(owner, runtimeSet(fake), () => apiPod(uid));
      const found = await resolver.resolve('default', 'twin', 'main');
      assert.equal(found.containerId, expected);
      assert.equal(found.sandboxId, `sandbox-${uid}-0`);
    }
  });

  it('the resolver does not hand out an unlabelled container, even of a pod uid the agent knows', async () => {
    const resolver = createResolver(A, runtimeSet(sharedEngine().fake), () => apiPod('uid-old'));
    await assert.rejects(resolver.resolve('default', 'twin', 'main'), /is waiting to start/);
    await assert.rejects(resolver.resolveSandbox('default', 'twin'), /has no running sandbox/);
  });
});
