// Garbage collection through the real kubectl against a real `drover server`: an owner (a
// ConfigMap) with pods and ConfigMaps that name it in their ownerReferences, deleted with
// `kubectl delete` and each --cascade. No workload controller is involved; the pods have no
// node and stay Pending.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useCluster } from './support/cluster-fixture.js';
import { waitFor } from './support/wait-for.js';

const cluster = useCluster();

interface Dependent {
  kind: 'Pod' | 'ConfigMap';
  name: string;
  blockOwnerDeletion?: boolean;
  finalizers?: string[];
}

async function makeOwner(name: string): Promise<string> {
  await cluster.kubectl(['create', 'configmap', name, '--from-literal=role=owner']);
  return cluster.kubectl(['get', 'configmap', name, '-o', 'jsonpath={.metadata.uid}']);
}

function dependentsYaml(owner: string, uid: string, dependents: Dependent[]): string {
  return dependents
    .map((d) => {
      const ownerRef = [
        '  ownerReferences:',
        '  - apiVersion: v1',
        '    kind: ConfigMap',
        `    name: ${owner}`,
        `    uid: ${uid}`,
        ...(d.blockOwnerDeletion ? ['    blockOwnerDeletion: true'] : []),
      ];
      const finalizers = d.finalizers ? ['  finalizers:', ...d.finalizers.map((f) => `  - ${f}`)] : [];
      const body =
        d.kind === 'Pod'
          ? ['spec:', '  containers:', '  - name: main', '    image: drover-test/busybox:1', '    command: ["sleep", "3600"]']
          : ['data:', '  role: dependent'];
      return ['apiVersion: v1', `kind: ${d.kind}`, 'metadata:', `  name: ${d.name}`, ...ownerRef, ...finalizers, ...body].join('\n');
    })
    .join('\n---\n');
}

async function makeDependents(owner: string, uid: string, dependents: Dependent[]): Promise<void> {
  await cluster.kubectl(['apply', '-f', '-'], { input: dependentsYaml(owner, uid, dependents) });
}

async function exists(kind: string, name: string): Promise<boolean> {
  const result = await cluster.kubectlRaw(['get', kind, name, '-o', 'name']);
  if (result.code === 0) return true;
  assert.match(result.stderr, /NotFound|not found/, result.stderr);
  return false;
}

const goneAll = (objects: Array<[string, string]>) => async () => {
  for (const [kind, name] of objects) if (await exists(kind, name)) return false;
  return true;
};

describe('kubectl delete and garbage collection', () => {
  it('background (the default): the owner goes at once and its dependents follow', async () => {
    const uid = await makeOwner('bg-owner');
    await makeDependents('bg-owner', uid, [
      { kind: 'Pod', name: 'bg-pod-1' },
      { kind: 'Pod', name: 'bg-pod-2' },
      { kind: 'ConfigMap', name: 'bg-child' },
    ]);
    assert.equal((await cluster.kubectl(['get', 'pods', '-o', 'name'])).split('\n').filter((l) => l.startsWith('pod/bg-pod-')).length, 2);
    const out = await cluster.kubectl(['delete', 'configmap', 'bg-owner']);
    assert.match(out, /configmap "bg-owner" deleted/);
    assert.equal(await exists('configmap', 'bg-owner'), false);
    await waitFor(
      'the dependents to be collected',
      goneAll([
        ['pod', 'bg-pod-1'],
        ['pod', 'bg-pod-2'],
        ['configmap', 'bg-child'],
      ]),
      15_000,
    );
    // The collector recorded the deletion as a transaction on the owner.
    const selector = encodeURIComponent(`drover.dev/target-uid=${uid}`);
    const tx = await waitFor(
      'a Succeeded delete transaction on the owner',
      async () => {
        const list = await cluster.api('GET', `/apis/drover.dev/v1/namespaces/default/transactions?labelSelector=${selector}`);
        return list.body.items.find((t: any) => t.spec.operation === 'delete' && t.status?.phase === 'Succeeded');
      },
      10_000,
    );
    assert.equal(tx.status.progress, '3/3');
  });

  it('--cascade=foreground: the dependents go first, the owner last', async () => {
    const uid = await makeOwner('fg-owner');
    await makeDependents('fg-owner', uid, [
      // Held by a finalizer of its own, so that the owner can be seen waiting.
      { kind: 'Pod', name: 'fg-blocking', blockOwnerDeletion: true, finalizers: ['example.com/hold'] },
      { kind: 'Pod', name: 'fg-pod' },
      { kind: 'ConfigMap', name: 'fg-child', blockOwnerDeletion: true },
    ]);
    await cluster.kubectl(['delete', 'configmap', 'fg-owner', '--cascade=foreground', '--wait=false']);
    await waitFor(
      'the free dependents to go',
      goneAll([
        ['pod', 'fg-pod'],
        ['configmap', 'fg-child'],
      ]),
      15_000,
    );
    await waitFor(
      'the blocking pod to be deleted',
      async () => (await cluster.kubectl(['get', 'pod', 'fg-blocking', '-o', 'jsonpath={.metadata.deletionTimestamp}'])) !== '',
      10_000,
    );
    assert.equal(await cluster.kubectl(['get', 'configmap', 'fg-owner', '-o', 'jsonpath={.metadata.finalizers}']), '["foregroundDeletion"]');
    await cluster.kubectl(['patch', 'pod', 'fg-blocking', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']);
    await cluster.kubectl(['wait', '--for=delete', 'configmap/fg-owner', '--timeout=30s']);
    assert.equal(await exists('pod', 'fg-blocking'), false);
  });

  it('--cascade=foreground waits (kubectl --wait) until the owner and its dependents are gone', async () => {
    const uid = await makeOwner('fgw-owner');
    await makeDependents('fgw-owner', uid, [
      { kind: 'Pod', name: 'fgw-pod', blockOwnerDeletion: true },
      { kind: 'ConfigMap', name: 'fgw-child', blockOwnerDeletion: true },
    ]);
    await cluster.kubectl(['delete', 'configmap', 'fgw-owner', '--cascade=foreground', '--timeout=30s']);
    assert.equal(
      await goneAll([
        ['configmap', 'fgw-owner'],
        ['pod', 'fgw-pod'],
        ['configmap', 'fgw-child'],
      ])(),
      true,
    );
  });

  it('--cascade=orphan: the dependents stay, without their reference to the owner', async () => {
    const uid = await makeOwner('orphan-owner');
    await makeDependents('orphan-owner', uid, [
      { kind: 'Pod', name: 'orphan-pod', blockOwnerDeletion: true },
      { kind: 'ConfigMap', name: 'orphan-child' },
    ]);
    await cluster.kubectl(['delete', 'configmap', 'orphan-owner', '--cascade=orphan', '--timeout=30s']);
    assert.equal(await exists('configmap', 'orphan-owner'), false);
    for (const [kind, name] of [
      ['pod', 'orphan-pod'],
      ['configmap', 'orphan-child'],
    ] as const) {
      assert.equal(await exists(kind, name), true, `${kind}/${name} stays`);
      assert.equal(await cluster.kubectl(['get', kind, name, '-o', 'jsonpath={.metadata.ownerReferences}']), '', `${kind}/${name} lost its owner reference`);
    }
    // And it stays orphaned: nothing collects it later.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(await exists('pod', 'orphan-pod'), true);
  });
});
