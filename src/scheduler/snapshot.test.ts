import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { podInfoOf } from './pod-info.js';
import { makeNode, makePod, snapshotOf } from '../../test/support/scheduler/builders.js';

describe('ClusterSnapshot', () => {
  it('parses allocatable, labels, taints, cordon and readiness', () => {
    const snapshot = snapshotOf([
      makeNode({
        name: 'n1',
        cpu: '2',
        memory: '4Gi',
        pods: 10,
        extended: { 'example.com/gpu': '4' },
        labels: { rack: 'r1' },
        taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }],
        unschedulable: true,
        ready: 'False',
      }),
    ]);
    const node = snapshot.getNode('n1')!;
    assert.equal(node.allocatable.milliCpu, 2000);
    assert.equal(node.allocatable.memory, 4 * 2 ** 30);
    assert.equal(node.allocatable.pods, 10);
    assert.equal(node.allocatable.scalar?.get('example.com/gpu'), 4);
    assert.equal(node.labels['rack'], 'r1');
    assert.deepEqual(node.taints, [{ key: 'k', value: 'v', effect: 'NoSchedule' }]);
    assert.equal(node.unschedulable, true);
    assert.equal(node.ready, 'False');
  });

  it('accounts bound pods on their node and releases them on delete or completion', () => {
    const snapshot = snapshotOf([makeNode({ name: 'n1' })]);
    const pod = makePod({
      name: 'a',
      cpu: '500m',
      nodeName: 'n1',
      containers: [{ requests: { cpu: '500m' }, ports: [{ containerPort: 80, hostPort: 8080 }] }],
    });
    snapshot.addPod(pod);
    const node = snapshot.getNode('n1')!;
    assert.equal(node.requested.milliCpu, 500);
    assert.equal(node.podCount, 1);
    assert.equal(node.portsConflict([{ hostIP: '0.0.0.0', protocol: 'TCP', port: 8080 }]), true);
    snapshot.addPod({ ...pod, status: { phase: 'Succeeded' } });
    assert.equal(node.requested.milliCpu, 0, 'a finished pod holds nothing');
    assert.equal(node.podCount, 0);
    assert.equal(node.portsConflict([{ hostIP: '0.0.0.0', protocol: 'TCP', port: 8080 }]), false);
    snapshot.addPod(pod);
    snapshot.removePod(pod);
    assert.equal(node.podCount, 0);
  });

  it('an update moving a pod replaces its old accounting', () => {
    const snapshot = snapshotOf([makeNode({ name: 'n1' }), makeNode({ name: 'n2' })]);
    snapshot.addPod(makePod({ name: 'a', cpu: '1', nodeName: 'n1' }));
    snapshot.updatePod(makePod({ name: 'a', cpu: '1', nodeName: 'n2' }));
    assert.equal(snapshot.getNode('n1')!.requested.milliCpu, 0);
    assert.equal(snapshot.getNode('n2')!.requested.milliCpu, 1000);
  });

  it('assume holds capacity before the binding is confirmed; forget releases it', () => {
    const snapshot = snapshotOf([makeNode({ name: 'n1' })]);
    const pod = makePod({ name: 'a', cpu: '1', owner: 'rs' });
    snapshot.assume(pod, 'n1');
    assert.equal(snapshot.isAssumed(pod), true);
    assert.equal(snapshot.getNode('n1')!.requested.milliCpu, 1000);
    assert.equal(snapshot.siblingsByNode(podInfoOf(pod).siblingKey)?.get('n1'), 1);
    // The informer still shows the pod unbound: the assumption must survive that event.
    snapshot.updatePod(pod);
    assert.equal(snapshot.isAssumed(pod), true);
    snapshot.forget(pod);
    assert.equal(snapshot.isAssumed(pod), false);
    assert.equal(snapshot.getNode('n1')!.requested.milliCpu, 0);
    assert.equal(snapshot.siblingsByNode(podInfoOf(pod).siblingKey), undefined);
  });

  it('the bound pod from the informer confirms the assumption, and forget leaves it alone', () => {
    const snapshot = snapshotOf([makeNode({ name: 'n1' })]);
    const pod = makePod({ name: 'a', cpu: '1' });
    snapshot.assume(pod, 'n1');
    snapshot.addPod(makePod({ name: 'a', cpu: '1', nodeName: 'n1' }));
    assert.equal(snapshot.isAssumed(pod), false);
    snapshot.forget(pod);
    assert.equal(snapshot.getNode('n1')!.requested.milliCpu, 1000, 'counted once, kept after forget');
  });

  it('keeps pods that arrive before their node, and pods of a deleted node until they go', () => {
    const snapshot = snapshotOf([]);
    const pod = makePod({ name: 'a', cpu: '1', nodeName: 'late' });
    snapshot.addPod(pod);
    assert.equal(snapshot.getNode('late'), undefined, 'no Node object yet: not a candidate');
    snapshot.updateNode(makeNode({ name: 'late' }));
    assert.equal(snapshot.getNode('late')!.requested.milliCpu, 1000);
    snapshot.removeNode('late');
    assert.equal(snapshot.nodeCount, 0);
    snapshot.updateNode(makeNode({ name: 'late' }));
    assert.equal(snapshot.getNode('late')!.requested.milliCpu, 1000, 'the pod never left');
  });

  it('removes nodes from the candidate list in O(1) without losing the others', () => {
    const snapshot = snapshotOf(['a', 'b', 'c', 'd'].map((name) => makeNode({ name })));
    snapshot.removeNode('b');
    assert.deepEqual(snapshot.nodes.map((n) => n.name).sort(), ['a', 'c', 'd']);
    snapshot.removeNode('d');
    snapshot.updateNode(makeNode({ name: 'e' }));
    assert.deepEqual(snapshot.nodes.map((n) => n.name).sort(), ['a', 'c', 'e']);
    assert.equal(snapshot.getNode('b'), undefined);
  });

  it('a deleted node gives its numbers back; the next node starts from zero', () => {
    const snapshot = snapshotOf([makeNode({ name: 'old' })]);
    const pod = makePod({ name: 'a', cpu: '1', nodeName: 'old' });
    snapshot.addPod(pod);
    snapshot.removeNode('old');
    snapshot.removePod(pod);
    snapshot.updateNode(makeNode({ name: 'new', cpu: '2' }));
    const node = snapshot.getNode('new')!;
    assert.equal(node.reqMilliCpu, 0);
    assert.equal(node.podCount, 0);
    assert.equal(node.allocMilliCpu, 2000);
  });
});
