import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { componentRegistry } from '../../metrics/component-metrics.js';
import { makeNode, makePod, snapshotOf } from '../../../test/support/scheduler/builders.js';
import { gangPod, GangHarness, makePodGroup } from '../../../test/support/scheduler/gang-harness.js';

const GPU = 'example.com/gpu';

function twoGpuNodes(): GangHarness {
  return new GangHarness(snapshotOf([makeNode({ name: 'n1', extended: { [GPU]: '4' } }), makeNode({ name: 'n2', extended: { [GPU]: '4' } })]));
}

function gpusInUse(h: GangHarness): number {
  return h.snapshot.nodes.reduce((sum, node) => sum + (node.requestedScalar?.get(GPU) ?? 0), 0);
}

describe('coscheduling permit', () => {
  it('holds members at permit until minMember have places, then allows every waiting sibling', async () => {
    const h = twoGpuNodes();
    h.addGroup(makePodGroup('j', { minMember: 3 }));
    const pods = [0, 1, 2].map((i) => gangPod('j', i, 2));
    h.addPods(...pods);
    assert.deepEqual(h.manager.admit('default/j', pods, h.snapshot), { admitted: true });
    assert.equal(h.schedule(pods[0]!), 'wait');
    assert.equal(h.schedule(pods[1]!), 'wait');
    assert.deepEqual(h.allowed, [], 'nothing is bound before the quorum');
    assert.equal(gpusInUse(h), 4, 'waiting members hold their reservation');
    assert.equal(h.schedule(pods[2]!), 'allow');
    assert.deepEqual(h.allowed.sort(), ['j-0', 'j-1', 'j-2']);
    assert.equal(h.waiting.size, 0);
    assert.match(await componentRegistry.metrics(), /drover_scheduler_podgroup_schedule_attempts_total\{result="scheduled"\} [1-9]/);
  });

  it('turns members away while the group is missing or has fewer members than minMember', () => {
    const h = twoGpuNodes();
    const pods = [0, 1].map((i) => gangPod('j', i, 1));
    h.addPods(...pods);
    assert.match(h.schedule(pods[0]!), /pod group default\/j not found/);
    h.addGroup(makePodGroup('j', { minMember: 4 }));
    assert.equal(h.schedule(pods[0]!), '0/2 nodes are available: pod group default/j: 2/4 members exist.');
    const admission = h.manager.admit('default/j', pods, h.snapshot);
    assert.deepEqual(admission, {
      admitted: false,
      reason: 'NotEnoughMembers',
      message: 'pod group default/j: fewer than minMember 4 members exist (waiting for more)',
      detail: 'pod group default/j: 2/4 members exist',
    });
  });

  it('admits a second group only when the free capacity holds it whole: one runs, the other waits holding nothing', () => {
    const h = twoGpuNodes();
    h.addGroup(makePodGroup('a', { minMember: 3 }, '2026-01-01T00:00:00Z'));
    h.addGroup(makePodGroup('b', { minMember: 3 }, '2026-01-01T00:00:01Z'));
    const a = [0, 1, 2].map((i) => gangPod('a', i, 2));
    const b = [0, 1, 2].map((i) => gangPod('b', i, 2));
    h.addPods(...a, ...b);
    assert.deepEqual(h.manager.order(['default/b', 'default/a']), ['default/a', 'default/b']);
    assert.deepEqual(h.manager.admit('default/a', a, h.snapshot), { admitted: true });
    for (const pod of a) h.schedule(pod);
    assert.deepEqual(h.manager.admit('default/b', b, h.snapshot), {
      admitted: false,
      reason: 'WaitingForCapacity',
      message: 'pod group default/b needs example.com/gpu 6, more than is free now (waiting for capacity)',
      detail: 'pod group default/b needs example.com/gpu 6, 2 free now (waiting for capacity)',
    });
    assert.equal(h.manager.peek('default/b')?.waiting?.message, 'pod group default/b needs example.com/gpu 6, 2 free now (waiting for capacity)');
    assert.equal(gpusInUse(h), 6, 'the waiting group holds no places');
    assert.deepEqual(h.allowed.sort(), ['a-0', 'a-1', 'a-2']);
  });

  it('refuses a group the trial placement cannot fit although the sums do (fragmentation)', () => {
    const h = twoGpuNodes();
    h.addPods(makePod({ name: 'x', nodeName: 'n1', requests: { [GPU]: '2' } }), makePod({ name: 'y', nodeName: 'n2', requests: { [GPU]: '2' } }));
    for (const pod of h.pods) h.snapshot.addPod(pod);
    h.addGroup(makePodGroup('big', { minMember: 1 }));
    const pod = gangPod('big', 0, 4);
    h.addPods(pod);
    const admission = h.manager.admit('default/big', [pod], h.snapshot);
    assert.equal(admission.admitted, false);
    assert.match((admission as { detail: string }).detail, /only 0 of 1 members have places in the free capacity/);
  });

  it('fails fast a group larger than the cluster, and takes it back when a node joins', () => {
    const h = twoGpuNodes();
    h.addGroup(makePodGroup('huge', { minMember: 6 }));
    const pods = [0, 1, 2, 3, 4, 5].map((i) => gangPod('huge', i, 2));
    h.addPods(...pods);
    const admission = h.manager.admit('default/huge', pods, h.snapshot);
    assert.deepEqual(admission, {
      admitted: false,
      reason: 'NotEnoughResources',
      message: 'pod group default/huge needs example.com/gpu 12, the cluster has 8 allocatable',
    });
    assert.equal(h.manager.peek('default/huge')?.failed, 'pod group default/huge needs example.com/gpu 12, the cluster has 8 allocatable');
    h.snapshot.updateNode(makeNode({ name: 'n3', extended: { [GPU]: '4' } }));
    assert.deepEqual(h.manager.admit('default/huge', pods, h.snapshot), { admitted: true });
    assert.equal(h.manager.peek('default/huge')?.failed, undefined);
  });

  it('fails fast a member that fits no node even when empty, and a minResources beyond the cluster', () => {
    const h = twoGpuNodes();
    h.addGroup(makePodGroup('wide', { minMember: 1 }));
    h.addGroup(makePodGroup('min', { minMember: 1, minResources: { [GPU]: '9' } }));
    const wide = gangPod('wide', 0, 5);
    const min = gangPod('min', 0, 1);
    h.addPods(wide, min);
    assert.match(
      (h.manager.admit('default/wide', [wide], h.snapshot) as { message: string }).message,
      /a member needs example.com\/gpu 5, more than any node has allocatable/,
    );
    assert.match((h.manager.admit('default/min', [min], h.snapshot) as { message: string }).message, /needs example.com\/gpu 9, the cluster has 8 allocatable/);
  });

  it('releases every place at the timeout, names the group and why, and backs the group off', async () => {
    const h = twoGpuNodes();
    h.addGroup(makePodGroup('p', { minMember: 4, scheduleTimeoutSeconds: 2 }));
    const pods = [0, 1, 2, 3].map((i) => gangPod('p', i, 2));
    h.addPods(...pods);
    for (const pod of pods.slice(0, 3)) assert.equal(h.schedule(pod), 'wait');
    assert.equal(gpusInUse(h), 6);
    h.plugin.timeout('default/p', h.snapshot);
    assert.equal(gpusInUse(h), 0, 'every reservation is released');
    assert.deepEqual(
      h.rejected.map((r) => r.message),
      Array(3).fill('pod group default/p: 3 of 4 members have places (timed out after 2s)'),
    );
    assert.match(await componentRegistry.metrics(), /drover_scheduler_podgroup_schedule_attempts_total\{result="timeout"\} [1-9]/);
    const retry = h.manager.admit('default/p', pods, h.snapshot);
    assert.equal(retry.admitted, false);
    assert.equal((retry as { retryAfterMs?: number }).retryAfterMs, 2000);
  });

  it('a rejected member takes its waiting siblings with it: all or none', () => {
    const h = twoGpuNodes();
    h.addGroup(makePodGroup('q', { minMember: 3 }));
    const pods = [0, 1, 2].map((i) => gangPod('q', i, 1));
    h.addPods(...pods);
    h.schedule(pods[0]!);
    h.schedule(pods[1]!);
    h.waiting.reject('q-0', 'the pod was deleted');
    assert.deepEqual(h.rejected.map((r) => r.key).sort(), ['q-0', 'q-1']);
    assert.equal(gpusInUse(h), 0);
  });

  it('places a replacement member of a group that has its quorum on its own', () => {
    const h = twoGpuNodes();
    h.addGroup(makePodGroup('r', { minMember: 3 }));
    const pods = [0, 1, 2].map((i) => gangPod('r', i, 1));
    h.addPods(...pods);
    for (const pod of pods) h.schedule(pod);
    h.confirmBindings();
    assert.equal(h.manager.isSatisfied('default/r', h.snapshot), true);
    const replacement = gangPod('r', 3, 1);
    h.addPods(replacement);
    assert.equal(h.schedule(replacement), 'allow');
  });

  it('waits again for a whole gang recreated with no member bound', () => {
    const h = twoGpuNodes();
    h.addGroup(makePodGroup('s', { minMember: 2 }));
    const pods = [0, 1].map((i) => gangPod('s', i, 1, { uid: `second-${i}` }));
    h.addPods(...pods);
    assert.equal(h.manager.isSatisfied('default/s', h.snapshot), false);
    assert.equal(h.schedule(pods[0]!), 'wait');
  });

  it('leaves pods without the label alone', () => {
    const h = twoGpuNodes();
    assert.equal(h.schedule(makePod({ name: 'plain', requests: { [GPU]: '1' } })), 'allow');
  });

  it('keeps lower-priority gangs from taking the room a higher-priority gang waits for', () => {
    const h = twoGpuNodes();
    h.addPods(makePod({ name: 'x', nodeName: 'n1', requests: { [GPU]: '2' } }));
    h.snapshot.addPod(h.pods[0]!);
    for (const name of ['big', 'small', 'peer']) h.addGroup(makePodGroup(name, { minMember: name === 'big' ? 4 : 1 }));
    const big = [0, 1, 2, 3].map((i) => gangPod('big', i, 2, { spec: { priority: 10 } }));
    const small = gangPod('small', 0, 2);
    const peer = gangPod('peer', 0, 2, { spec: { priority: 10 } });
    h.addPods(...big, small, peer);
    assert.equal(h.manager.admit('default/big', big, h.snapshot).admitted, false);
    assert.deepEqual(h.manager.admit('default/small', [small], h.snapshot), {
      admitted: false,
      reason: 'WaitingForCapacity',
      message: 'pod group default/small waits behind higher-priority pod group default/big',
    });
    assert.equal(h.manager.admit('default/peer', [peer], h.snapshot).admitted, true, 'equal priority backfills');
    h.groups.delete('default/big');
    assert.equal(h.manager.admit('default/small', [small], h.snapshot).admitted, true, 'a group that is gone holds nobody back');
  });

  it('orders groups by priority, then PodGroup age, then name', () => {
    const h = twoGpuNodes();
    h.addGroup(makePodGroup('old', { minMember: 1 }, '2026-01-01T00:00:00Z'));
    h.addGroup(makePodGroup('young', { minMember: 1 }, '2026-01-02T00:00:00Z'));
    h.addGroup(makePodGroup('urgent', { minMember: 1 }, '2026-01-03T00:00:00Z'));
    h.addGroup(makePodGroup('also-old', { minMember: 1 }, '2026-01-01T00:00:00Z'));
    h.addPods(gangPod('old', 0, 1), gangPod('young', 0, 1), gangPod('urgent', 0, 1, { spec: { priority: 100 } }), gangPod('also-old', 0, 1));
    assert.deepEqual(h.manager.order(['default/young', 'default/old', 'default/urgent', 'default/also-old']), [
      'default/urgent',
      'default/also-old',
      'default/old',
      'default/young',
    ]);
  });
});
