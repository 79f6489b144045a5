import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import type { ApiClient, EventRecorder } from '../../client/index.js';
import { POD_GROUP_LABEL } from '../gang/pod-group.js';
import { createScheduler } from '../index.js';
import { podInfoOf } from '../pod-info.js';
import { makeNode, makePod, seededRandom, snapshotOf } from '../../../test/support/scheduler/builders.js';
import { budgetOf } from './budgets.js';
import { Preemptor } from './preemptor.js';
import { pickCandidate, selectVictimsOnNode, type Candidate, type VictimSearch } from './victims.js';

/** A pod of the given priority asking for `cpu`, bound to `node` when given, started at `started`. */
function pod(
  name: string,
  priority: number,
  cpu: string,
  node?: string,
  extra: { started?: string; labels?: Record<string, string>; spec?: Record<string, unknown> } = {},
): KubeObject {
  const made = makePod({
    name,
    cpu,
    ...(node ? { nodeName: node, phase: 'Running' } : {}),
    ...(extra.labels ? { labels: extra.labels } : {}),
    spec: { priority, ...extra.spec },
  });
  made.metadata.creationTimestamp = extra.started ?? '2026-01-01T00:00:00Z';
  return made;
}

function searchFor(preemptor: KubeObject, snapshot = snapshotOf([]), budgets: KubeObject[] = []): VictimSearch {
  const framework = createScheduler({ random: seededRandom() });
  const info = podInfoOf(preemptor);
  const priority = preemptor['spec'] as { priority: number };
  return {
    fits: framework.nodeCheck(info, snapshot)!,
    mayPreempt: (p) => ((p.pod['spec'] as { priority?: number }).priority ?? 0) < priority.priority,
    leaving: (p) => p.pod.metadata.deletionTimestamp !== undefined,
    budgets: budgets.map(budgetOf),
  };
}

const names = (c: Candidate | undefined) => c?.victims.map((v) => v.name) ?? [];

describe('victims on one node', () => {
  it('takes the fewest, least important lower-priority pods, and leaves the snapshot as it was', () => {
    const snapshot = snapshotOf(
      [makeNode({ name: 'n1', cpu: '4' })],
      [pod('low-a', 10, '1', 'n1'), pod('low-b', 10, '1', 'n1'), pod('mid', 50, '1', 'n1'), pod('big-low', 5, '1', 'n1')],
    );
    const preemptor = pod('high', 100, '2');
    const node = snapshot.getNode('n1')!;
    const before = [node.reqMilliCpu, node.podCount];
    const candidate = selectVictimsOnNode(node, searchFor(preemptor, snapshot));
    // Most important given back first: mid, then the low ones; big-low (priority 5) and one low go.
    assert.deepEqual(names(candidate), ['low-b', 'big-low']);
    assert.deepEqual([node.reqMilliCpu, node.podCount], before);
  });

  it('never takes pods of equal or higher priority: no room, no candidate', () => {
    const snapshot = snapshotOf([makeNode({ name: 'n1', cpu: '2' })], [pod('same', 100, '1', 'n1'), pod('higher', 200, '1', 'n1')]);
    assert.equal(selectVictimsOnNode(snapshot.getNode('n1')!, searchFor(pod('p', 100, '1'), snapshot)), undefined);
  });

  it('a node that fails another filter (a selector) is no candidate whatever goes', () => {
    const snapshot = snapshotOf([makeNode({ name: 'n1', cpu: '1' })], [pod('low', 0, '1', 'n1')]);
    const picky = pod('p', 100, '1', undefined, { spec: { priority: 100, nodeSelector: { disk: 'ssd' } } });
    assert.equal(selectVictimsOnNode(snapshot.getNode('n1')!, searchFor(picky, snapshot)), undefined);
  });

  it('pods already being deleted free room without being victims', () => {
    const leaving = pod('leaving', 0, '1', 'n1');
    leaving.metadata.deletionTimestamp = '2026-01-01T00:01:00Z';
    const snapshot = snapshotOf([makeNode({ name: 'n1', cpu: '2' })], [leaving, pod('low', 0, '1', 'n1')]);
    assert.deepEqual(names(selectVictimsOnNode(snapshot.getNode('n1')!, searchFor(pod('p', 100, '1'), snapshot))), []);
  });

  it('a victim that would break a disruption budget is the first offered a reprieve', () => {
    const snapshot = snapshotOf(
      [makeNode({ name: 'n1', cpu: '2' })],
      [pod('guarded', 0, '1', 'n1', { labels: { app: 'db' } }), pod('free', 0, '1', 'n1', { labels: { app: 'web' } })],
    );
    const pdb = {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'db', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'db' } } },
      status: { disruptionsAllowed: 0 },
    };
    const candidate = selectVictimsOnNode(snapshot.getNode('n1')!, searchFor(pod('p', 100, '1'), snapshot, [pdb]));
    assert.deepEqual(names(candidate), ['free']);
    assert.equal(candidate?.budgetViolations, 0);
  });
});

describe('choosing the node', () => {
  const info = (name: string, priority: number, started = '2026-01-01T00:00:00Z') => podInfoOf(pod(name, priority, '1', 'n', { started }));
  const candidate = (node: string, victims: ReturnType<typeof info>[], budgetViolations = 0): Candidate => ({ node, victims, budgetViolations });

  it('orders by budget violations, highest victim, priority sum, count, then latest start', () => {
    assert.equal(pickCandidate([candidate('a', [info('x', 1)], 1), candidate('b', [info('y', 5)])])?.node, 'b');
    assert.equal(pickCandidate([candidate('a', [info('x', 5)]), candidate('b', [info('y', 3), info('z', 3)])])?.node, 'b');
    assert.equal(pickCandidate([candidate('a', [info('x', 5), info('y', 4)]), candidate('b', [info('z', 5), info('w', 1)])])?.node, 'b');
    // Priorities are offset by 2^31 before summing, as in Kubernetes: one victim of 5 beats 5 and 0.
    assert.equal(pickCandidate([candidate('a', [info('x', 5), info('y', 0)]), candidate('b', [info('z', 5)])])?.node, 'b');
    assert.equal(
      pickCandidate([candidate('a', [info('x', 5, '2026-01-01T09:00:00Z')]), candidate('b', [info('y', 5, '2026-01-01T10:00:00Z')])])?.node,
      'b',
      'the victims that started last lose the least work',
    );
    assert.equal(pickCandidate([candidate('a', [info('x', 5)]), candidate('b', [])])?.node, 'b', 'a node needing no victim wins outright');
  });
});

/** An API client that only records what the preemptor asks of it. */
function recordingApi() {
  const calls: string[] = [];
  const api = {
    resource: () => ({
      patch: async (name: string, _type: string, body: unknown) => (calls.push(`patch ${name} ${JSON.stringify(body)}`), {}),
      delete: async (name: string) => (calls.push(`delete ${name}`), {}),
    }),
  } as unknown as ApiClient;
  const events: string[] = [];
  const recorder = {
    record: async (o: KubeObject, type: string, reason: string, message: string) => void events.push(`${o.metadata.name} ${type} ${reason} ${message}`),
  } as unknown as EventRecorder;
  return { api, recorder, calls, events };
}

describe('the preemptor', () => {
  const setup = () => {
    const snapshot = snapshotOf(
      [makeNode({ name: 'n1', cpu: '2' }), makeNode({ name: 'n2', cpu: '2' })],
      [pod('a', 10, '1', 'n1'), pod('b', 10, '1', 'n1'), pod('c', 0, '2', 'n2', { labels: { [POD_GROUP_LABEL]: 'g' } })],
    );
    const framework = createScheduler({ random: seededRandom() });
    const io = recordingApi();
    const preemptor = new Preemptor({ api: io.api, framework, recorder: io.recorder, schedulerName: 'default-scheduler', budgets: () => [] });
    return { snapshot, framework, preemptor, ...io };
  };

  it('nominates the pod, marks and deletes the victims with a Preempted event, and holds the room against lower priorities', async () => {
    const { snapshot, framework, preemptor, calls, events } = setup();
    const high = pod('high', 100, '2');
    assert.equal(preemptor.preempt('default/high', high, snapshot), 'n2', 'one victim of priority 0 beats two of 10');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(calls[0], 'patch high {"status":{"nominatedNodeName":"n2"}}');
    assert.ok(calls.includes('delete c'));
    assert.match(
      calls.find((c) => c.startsWith('patch c'))!,
      /"type":"DisruptionTarget".*"reason":"PreemptionByScheduler"/,
    );
    assert.deepEqual(events, ['c Normal Preempted Preempted by pod uid-pod-default-high on node n2']);
    // The victim is gone: a lower-priority pod may not take the room, the nominated pod gets it.
    snapshot.removePod(pod('c', 0, '2', 'n2'));
    const low = pod('low', 50, '1');
    let release = preemptor.holdRoomFor('default/low', low, snapshot);
    assert.ok('unschedulable' in framework.schedulePod(low, snapshot));
    release();
    release = preemptor.holdRoomFor('default/high', high, snapshot);
    const placed = framework.schedulePod(high, snapshot, preemptor.nominatedNode('default/high'));
    release();
    assert.deepEqual(placed, { node: 'n2', permit: 'allow' });
  });

  it('looks no further when no pod in the cluster is below the preemptor', () => {
    const { snapshot, preemptor } = setup();
    assert.equal(snapshot.lowestPriority(), 0);
    assert.equal(preemptor.preempt('default/zero', pod('zero', 0, '2'), snapshot), undefined);
    snapshot.removePod(pod('c', 0, '2', 'n2'));
    assert.equal(snapshot.lowestPriority(), 10);
    assert.equal(preemptor.preempt('default/ten', pod('ten', 10, '2'), snapshot), undefined);
  });

  it('does nothing for preemptionPolicy Never, and a gang member spares its own gang', () => {
    const { snapshot, preemptor, calls } = setup();
    assert.equal(
      preemptor.preempt('default/polite', pod('polite', 100, '2', undefined, { spec: { priority: 100, preemptionPolicy: 'Never' } }), snapshot),
      undefined,
    );
    const member = pod('member', 100, '2', undefined, { labels: { [POD_GROUP_LABEL]: 'g' } });
    assert.equal(preemptor.preempt('default/member', member, snapshot), 'n1', 'c is of its own gang: n1 it is');
    assert.ok(!calls.includes('delete c'));
  });
});
