import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { createScheduler, type ScheduleResult } from '../index.js';
import { makeNode, makePod, seededRandom, snapshotOf, verdictOf } from '../../../test/support/scheduler/builders.js';
import { marathonConstraints } from './constraints.js';

function sibling(name: string, constraints: unknown[], nodeName?: string): KubeObject {
  return makePod({
    name,
    owner: 'web',
    cpu: '100m',
    labels: { app: 'web' },
    annotations: { 'drover.dev/constraints': JSON.stringify(constraints) },
    ...(nodeName ? { nodeName } : {}),
  });
}

function admitted(snapshot: ReturnType<typeof snapshotOf>, pod: KubeObject): string[] {
  return snapshot.nodes
    .map((n) => n.name)
    .filter((n) => verdictOf(marathonConstraints(), pod, n, snapshot) === 'ok')
    .sort();
}

function placed(result: ScheduleResult): string {
  if ('unschedulable' in result) assert.fail(result.message);
  return result.node;
}

const racks = () =>
  snapshotOf([
    makeNode({ name: 'a1', labels: { rack: 'a', zone: 'eu-1' } }),
    makeNode({ name: 'a2', labels: { rack: 'a', zone: 'eu-12' } }),
    makeNode({ name: 'b1', labels: { rack: 'b', zone: 'xeu-1' } }),
    makeNode({ name: 'c1', labels: { zone: 'us-1' } }),
  ]);

describe('Marathon constraints', () => {
  it('UNIQUE hostname spreads 3 siblings over 3 nodes, then rejects the 4th', () => {
    const snapshot = snapshotOf(['n1', 'n2', 'n3'].map((name) => makeNode({ name })));
    const scheduler = createScheduler({ random: seededRandom() });
    const nodes = [0, 1, 2].map((i) => placed(scheduler.schedulePod(sibling(`web-${i}`, [['hostname', 'UNIQUE']]), snapshot)));
    assert.deepEqual(nodes.sort(), ['n1', 'n2', 'n3']);
    const fourth = scheduler.schedulePod(sibling('web-3', [['hostname', 'UNIQUE']]), snapshot);
    assert.ok('unschedulable' in fourth);
    assert.equal(fourth.message, "0/3 nodes are available: 3 node(s) didn't satisfy constraint hostname:UNIQUE.");
  });

  it('UNIQUE on a label allows one sibling per value', () => {
    const snapshot = racks();
    snapshot.addPod(sibling('web-0', [], 'a1'));
    assert.deepEqual(admitted(snapshot, sibling('web-1', [['rack', 'UNIQUE']])), ['b1'], 'rack a is taken; c1 has no rack label');
  });

  it('GROUP_BY rack 2 waits for a second rack before doubling up, then fills the smallest', () => {
    const snapshot = racks();
    const constraints = [['rack', 'GROUP_BY', '2']];
    assert.deepEqual(admitted(snapshot, sibling('web-0', constraints)), ['a1', 'a2', 'b1']);
    snapshot.addPod(sibling('web-0', constraints, 'a1'));
    assert.deepEqual(admitted(snapshot, sibling('web-1', constraints)), ['b1'], 'only 1 group so far: a new rack is required');
    snapshot.addPod(sibling('web-1', constraints, 'b1'));
    assert.deepEqual(admitted(snapshot, sibling('web-2', constraints)), ['a1', 'a2', 'b1'], '2 groups of 1: either');
    snapshot.addPod(sibling('web-2', constraints, 'a2'));
    assert.deepEqual(admitted(snapshot, sibling('web-3', constraints)), ['b1'], 'rack b is the smallest group');
  });

  it('GROUP_BY through the scheduler balances replicas across racks', () => {
    const snapshot = racks();
    const scheduler = createScheduler({ random: seededRandom() });
    const byRack = new Map<string, number>();
    for (let i = 0; i < 6; i++) {
      const node = placed(scheduler.schedulePod(sibling(`web-${i}`, [['rack', 'GROUP_BY', '2']]), snapshot));
      const rack = snapshot.getNode(node)!.labels['rack']!;
      byRack.set(rack, (byRack.get(rack) ?? 0) + 1);
    }
    assert.deepEqual(Object.fromEntries(byRack), { a: 3, b: 3 });
  });

  it('CLUSTER with a value pins to it; without one, siblings follow the first', () => {
    const snapshot = racks();
    assert.deepEqual(admitted(snapshot, sibling('web-0', [['rack', 'CLUSTER', 'b']])), ['b1']);
    assert.deepEqual(admitted(snapshot, sibling('web-0', [['hostname', 'CLUSTER', 'a2']])), ['a2']);
    assert.deepEqual(admitted(snapshot, sibling('web-0', [['rack', 'CLUSTER']])), ['a1', 'a2', 'b1']);
    snapshot.addPod(sibling('web-0', [['rack', 'CLUSTER']], 'a2'));
    assert.deepEqual(admitted(snapshot, sibling('web-1', [['rack', 'CLUSTER']])), ['a1', 'a2']);
  });

  it('LIKE and UNLIKE match the whole value; UNLIKE admits nodes without the label', () => {
    const snapshot = racks();
    assert.deepEqual(admitted(snapshot, sibling('p', [['zone', 'LIKE', 'eu-[0-9]']])), ['a1']);
    assert.deepEqual(admitted(snapshot, sibling('p', [['zone', 'LIKE', 'eu-.*']])), ['a1', 'a2']);
    assert.deepEqual(admitted(snapshot, sibling('p', [['rack', 'UNLIKE', 'a']])), ['b1', 'c1']);
    assert.deepEqual(admitted(snapshot, sibling('p', [['hostname', 'LIKE', '[ab]1']])), ['a1', 'b1']);
    assert.equal(
      verdictOf(marathonConstraints(), sibling('p', [['zone', 'LIKE', 'eu-[0-9]']]), 'b1', snapshot),
      "node(s) didn't satisfy constraint zone:LIKE:eu-[0-9]",
    );
  });

  it('MAX_PER 2 caps siblings per node or per label value', () => {
    const snapshot = racks();
    snapshot.addPod(sibling('web-0', [], 'a1'));
    snapshot.addPod(sibling('web-1', [], 'a1'));
    snapshot.addPod(sibling('web-2', [], 'b1'));
    assert.deepEqual(admitted(snapshot, sibling('web-3', [['hostname', 'MAX_PER', '2']])), ['a2', 'b1', 'c1']);
    assert.deepEqual(admitted(snapshot, sibling('web-3', [['rack', 'MAX_PER', '2']])), ['b1']);
  });

  it('IS needs the exact value', () => {
    const snapshot = racks();
    assert.deepEqual(admitted(snapshot, sibling('p', [['rack', 'IS', 'a']])), ['a1', 'a2']);
    assert.deepEqual(admitted(snapshot, sibling('p', [['hostname', 'IS', 'c1']])), ['c1']);
  });

  it('all constraints must hold; the first failing one is the reason', () => {
    const snapshot = racks();
    snapshot.addPod(sibling('web-0', [], 'a1'));
    const pod = sibling('web-1', [
      ['zone', 'LIKE', 'eu-.*'],
      ['hostname', 'UNIQUE'],
    ]);
    assert.deepEqual(admitted(snapshot, pod), ['a2']);
    assert.equal(verdictOf(marathonConstraints(), pod, 'a1', snapshot), "node(s) didn't satisfy constraint hostname:UNIQUE");
  });

  it('siblings: same controller owner, or identical labels in the namespace for bare pods', () => {
    const snapshot = snapshotOf([makeNode({ name: 'n1' }), makeNode({ name: 'n2' })]);
    const bare = (name: string, labels: Record<string, string>, namespace = 'default', nodeName?: string) =>
      makePod({
        name,
        namespace,
        labels,
        annotations: { 'drover.dev/constraints': '[["hostname","UNIQUE"]]' },
        ...(nodeName ? { nodeName } : {}),
      });
    snapshot.addPod(bare('x', { app: 'db', tier: 'a' }, 'default', 'n1'));
    assert.deepEqual(admitted(snapshot, bare('y', { tier: 'a', app: 'db' })), ['n2'], 'same labels: a sibling');
    assert.deepEqual(admitted(snapshot, bare('y', { app: 'db' })), ['n1', 'n2'], 'different labels: not a sibling');
    assert.deepEqual(admitted(snapshot, bare('y', { app: 'db', tier: 'a' }, 'other')), ['n1', 'n2'], 'other namespace: not a sibling');
    snapshot.addPod(makePod({ name: 'owned', owner: 'rs', labels: { app: 'db', tier: 'a' }, nodeName: 'n2' }));
    assert.deepEqual(admitted(snapshot, bare('y', { tier: 'a', app: 'db' })), ['n2'], "an owned pod is not a bare pod's sibling");
  });

  it('an invalid annotation makes the pod unschedulable with a clear message', () => {
    const snapshot = racks();
    const invalid = (annotation: string) =>
      verdictOf(marathonConstraints(), makePod({ name: 'p', annotations: { 'drover.dev/constraints': annotation } }), 'a1', snapshot);
    const prefix = 'prefilter: invalid drover.dev/constraints annotation: ';
    assert.equal(invalid('hostname:UNIQUE'), `${prefix}not valid JSON`);
    assert.equal(invalid('{"hostname":"UNIQUE"}'), `${prefix}must be a JSON array of constraints`);
    assert.equal(invalid('[["zone","LIKE"]]'), `${prefix}constraint 0 ["zone","LIKE"]: LIKE requires a value`);
    assert.equal(
      invalid('[["hostname","UNIQUE"],["rack","MAX_PER","two"]]'),
      `${prefix}constraint 1 ["rack","MAX_PER","two"]: MAX_PER takes an integer maximum per group, not "two"`,
    );
    assert.match(invalid('[["zone","LIKE","eu-("]]') as string, /constraint 0 \["zone","LIKE","eu-\("\]: LIKE value "eu-\(" is not a valid regular expression/);
    assert.equal(invalid('[["hostname","UNIQUE","x"]]'), `${prefix}constraint 0 ["hostname","UNIQUE","x"]: UNIQUE does not take a value`);
    assert.equal(invalid('[["", "IS", "x"]]'), `${prefix}constraint 0 ["","IS","x"]: field must be a non-empty string`);
    assert.equal(invalid('[]'), 'ok');
  });
});
