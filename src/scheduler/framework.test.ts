import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildPipeline, type ScheduleResult } from './framework.js';
import { createScheduler } from './index.js';
import type { NodeInfo } from './node-info.js';
import { pass, type Plugin } from './plugin.js';
import { errorStatus, SKIP, SUCCESS, unschedulable, waitStatus } from './status.js';
import { numFeasibleNodesToFind } from './sampling.js';
import { makeNode, makePod, seededRandom, snapshotOf } from '../../test/support/scheduler/builders.js';

function nodeOf(result: ScheduleResult): string {
  if ('unschedulable' in result) assert.fail(result.message);
  return result.node;
}

function messageOf(result: ScheduleResult): string {
  if (!('unschedulable' in result)) assert.fail(`scheduled on ${result.node}`);
  return result.message;
}

describe('FailedScheduling message', () => {
  it('counts reasons per node and sorts them as kube-scheduler does', () => {
    const snapshot = snapshotOf([
      makeNode({ name: 'n1', cpu: '1', labels: { disk: 'ssd' } }),
      makeNode({ name: 'n2', cpu: '1', labels: { disk: 'ssd' } }),
      makeNode({ name: 'n3', cpu: '8', labels: { disk: 'hdd' } }),
    ]);
    const pod = makePod({ name: 'big', cpu: '2', spec: { nodeSelector: { disk: 'ssd' } } });
    const result = createScheduler().schedulePod(pod, snapshot);
    assert.equal(messageOf(result), "0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 Insufficient cpu.");
    assert.deepEqual(result, {
      unschedulable: true,
      message: messageOf(result),
      reasonsPerNode: { n1: ['Insufficient cpu'], n2: ['Insufficient cpu'], n3: ["node(s) didn't match Pod's node affinity/selector"] },
    });
  });

  it('explains cordon, taints, readiness, ports and resources in one message', () => {
    const snapshot = snapshotOf(
      [
        makeNode({ name: 'cordoned', unschedulable: true }),
        makeNode({ name: 'tainted', ready: 'Unknown', taints: [{ key: 'node.kubernetes.io/unreachable', value: '', effect: 'NoSchedule' }] }),
        makeNode({ name: 'down', ready: 'False' }),
        makeNode({ name: 'busy' }),
        makeNode({ name: 'small', cpu: '1', memory: '1Gi' }),
      ],
      [makePod({ name: 'web', nodeName: 'busy', containers: [{ ports: [{ containerPort: 80, hostPort: 80 }] }] })],
    );
    const pod = makePod({ name: 'p', containers: [{ requests: { cpu: '2', memory: '2Gi' }, ports: [{ containerPort: 80, hostPort: 80 }] }] });
    const result = createScheduler().schedulePod(pod, snapshot);
    assert.equal(
      messageOf(result),
      '0/5 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, ' +
        "1 node(s) didn't have free ports for the requested pod ports, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, " +
        '1 node(s) were not ready, 1 node(s) were unschedulable.',
    );
  });

  it('a pre-filter rejection is the whole message', () => {
    const snapshot = snapshotOf([makeNode({ name: 'n1' }), makeNode({ name: 'n2' })]);
    const pod = makePod({ name: 'p', annotations: { 'drover.dev/constraints': '[["hostname","SOMETIMES"]]' } });
    const result = createScheduler().schedulePod(pod, snapshot);
    assert.equal(
      messageOf(result),
      '0/2 nodes are available: invalid drover.dev/constraints annotation: constraint 0 ["hostname","SOMETIMES"]: ' +
        'operator must be one of UNIQUE, CLUSTER, GROUP_BY, LIKE, UNLIKE, MAX_PER, IS, not "SOMETIMES".',
    );
  });

  it('says so when there is no node at all', () => {
    const result = createScheduler().schedulePod(makePod({ name: 'p' }), snapshotOf([]));
    assert.equal(messageOf(result), 'no nodes available to schedule pods');
  });
});

describe('placement', () => {
  it('prefers the least allocated node and assumes the pod there', () => {
    const snapshot = snapshotOf([makeNode({ name: 'full' }), makeNode({ name: 'empty' })], [makePod({ name: 'x', cpu: '3', memory: '6Gi', nodeName: 'full' })]);
    const pod = makePod({ name: 'p', cpu: '500m', memory: '1Gi' });
    assert.equal(nodeOf(createScheduler({ random: seededRandom() }).schedulePod(pod, snapshot)), 'empty');
    assert.equal(snapshot.isAssumed(pod), true);
    assert.equal(snapshot.getNode('empty')!.requested.milliCpu, 500);
  });

  it('fills a cluster until it is full, then reports the shortage', () => {
    const snapshot = snapshotOf([makeNode({ name: 'a', cpu: '2' }), makeNode({ name: 'b', cpu: '2' })]);
    const scheduler = createScheduler({ random: seededRandom() });
    const placed = [1, 2, 3, 4].map((i) => nodeOf(scheduler.schedulePod(makePod({ name: `p${i}`, cpu: '1' }), snapshot)));
    assert.deepEqual(placed.sort(), ['a', 'a', 'b', 'b']);
    assert.equal(messageOf(scheduler.schedulePod(makePod({ name: 'p5', cpu: '1' }), snapshot)), '0/2 nodes are available: 2 Insufficient cpu.');
  });
});

describe('sampling', () => {
  it('finds an adaptive share of feasible nodes: all below 100, 50% → 5%, never under 100', () => {
    assert.equal(numFeasibleNodesToFind(50), 50);
    assert.equal(numFeasibleNodesToFind(100), 100);
    assert.equal(numFeasibleNodesToFind(1000), 420);
    assert.equal(numFeasibleNodesToFind(5000), 500);
    assert.equal(numFeasibleNodesToFind(20000), 1000);
    assert.equal(numFeasibleNodesToFind(5000, 100), 5000);
  });

  it('filters only that many nodes per pod and starts the next pod where the last stopped', () => {
    const seen: string[][] = [];
    const probe: Plugin = {
      name: 'Probe',
      preFilter: () => {
        seen.push([]);
        return pass(undefined);
      },
      filter: (_s, _p, node: NodeInfo) => {
        seen.at(-1)!.push(node.name);
        return undefined;
      },
    };
    const snapshot = snapshotOf(Array.from({ length: 1000 }, (_, i) => makeNode({ name: `n${i}` })));
    const scheduler = buildPipeline([probe]);
    scheduler.schedulePod(makePod({ name: 'p1' }), snapshot);
    scheduler.schedulePod(makePod({ name: 'p2' }), snapshot);
    assert.equal(seen[0]!.length, 420);
    assert.equal(seen[1]!.length, 420);
    assert.equal(seen[0]![0], 'n0');
    assert.equal(seen[1]![0], 'n420');
  });
});

describe('pinned pods', () => {
  it('a pod pinned by matchFields metadata.name is only tried on its node', () => {
    const tried: string[] = [];
    const probe: Plugin = { name: 'Probe', filter: (_s, _p, node: NodeInfo) => void tried.push(node.name) };
    const snapshot = snapshotOf(Array.from({ length: 1000 }, (_, i) => makeNode({ name: `n${i}` })));
    const pod = makePod({
      name: 'ds-x',
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n777'] }] }],
            },
          },
        },
      },
    });
    const result = createScheduler({}, [probe]).schedulePod(pod, snapshot);
    assert.equal(nodeOf(result), 'n777');
    assert.deepEqual(tried, ['n777']);
    const full = snapshotOf([makeNode({ name: 'n777', pods: 0 }), makeNode({ name: 'other' })]);
    assert.equal(
      messageOf(createScheduler().schedulePod(pod, full)),
      "0/2 nodes are available: 1 Too many pods, 1 node(s) didn't match Pod's node affinity/selector.",
    );
  });
});

describe('reserve, permit and bind', () => {
  function recorder(log: string[], permit: Plugin['permit']): Plugin {
    return {
      name: 'Gang',
      reserve: (pod, node) => void log.push(`reserve ${pod.name} ${node}`),
      unreserve: (pod, node) => void log.push(`unreserve ${pod.name} ${node}`),
      permit,
    };
  }

  it('a permit wait keeps the pod assumed and says how long to wait', () => {
    const log: string[] = [];
    const snapshot = snapshotOf([makeNode({ name: 'n1' })]);
    const scheduler = createScheduler({}, [recorder(log, () => waitStatus(30_000))]);
    const pod = makePod({ name: 'worker-0', cpu: '1' });
    assert.deepEqual(scheduler.schedulePod(pod, snapshot), { node: 'n1', permit: 'wait', timeoutMs: 30_000, waitingOn: ['Gang'] });
    assert.equal(snapshot.isAssumed(pod), true);
    scheduler.abandon(pod, 'n1', snapshot);
    assert.equal(snapshot.isAssumed(pod), false);
    assert.deepEqual(log, ['reserve worker-0 n1', 'unreserve worker-0 n1']);
  });

  it('a permit rejection unreserves and forgets the pod', () => {
    const log: string[] = [];
    const snapshot = snapshotOf([makeNode({ name: 'n1' })]);
    const scheduler = createScheduler({}, [recorder(log, () => unschedulable('gang of 4 cannot fit'))]);
    const pod = makePod({ name: 'worker-0', cpu: '1' });
    const result = scheduler.schedulePod(pod, snapshot);
    assert.equal(messageOf(result), 'gang of 4 cannot fit');
    assert.equal(snapshot.getNode('n1')!.requested.milliCpu, 0);
    assert.deepEqual(log, ['reserve worker-0 n1', 'unreserve worker-0 n1']);
  });

  it('binds through the first bind plugin that does not skip', async () => {
    const calls: string[] = [];
    const skip: Plugin = {
      name: 'Skip',
      bind: async () => {
        calls.push('skip');
        return SKIP;
      },
    };
    const bind: Plugin = {
      name: 'Api',
      bind: async (pod, node) => {
        calls.push(`bind ${pod.metadata.name} ${node}`);
        return SUCCESS;
      },
    };
    const scheduler = createScheduler({}, [skip, bind]);
    await scheduler.bind(makePod({ name: 'p' }), 'n1');
    assert.deepEqual(calls, ['skip', 'bind p n1']);
    await assert.rejects(createScheduler().bind(makePod({ name: 'p' }), 'n1'), /no bind plugin bound pod default\/p/);
  });

  it('stops binding at a bind plugin that answers with an error', async () => {
    const failing: Plugin = { name: 'Broken', bind: async () => errorStatus('the API refused') };
    const never: Plugin = { name: 'Never', bind: async () => assert.fail('a bind after an error') };
    await assert.rejects(createScheduler({}, [failing, never]).bind(makePod({ name: 'p' }), 'n1'), /Broken: the API refused/);
  });

  it('holds the pod as long as the shortest wait any permit plugin asks for', () => {
    const snapshot = snapshotOf([makeNode({ name: 'n1' })]);
    const long: Plugin = { name: 'Long', permit: () => waitStatus(60_000) };
    const short: Plugin = { name: 'Short', permit: () => waitStatus(5_000) };
    const allows: Plugin = { name: 'Allows', permit: () => SUCCESS };
    const result = createScheduler({}, [long, allows, short]).schedulePod(makePod({ name: 'p', cpu: '1' }), snapshot);
    assert.deepEqual(result, { node: 'n1', permit: 'wait', timeoutMs: 5_000, waitingOn: ['Long', 'Short'] });
  });

  it('takes a reserve or filter Success constant as a pass, and a reserve failure as a refusal', () => {
    const snapshot = snapshotOf([makeNode({ name: 'n1' }), makeNode({ name: 'n2' })]);
    const fine: Plugin = { name: 'Fine', filter: () => SUCCESS, reserve: () => SUCCESS };
    assert.equal('node' in createScheduler({}, [fine]).schedulePod(makePod({ name: 'p1', cpu: '1' }), snapshot), true);
    const full: Plugin = { name: 'Full', reserve: () => unschedulable('the quota is spent') };
    const refused = createScheduler({}, [full]).schedulePod(makePod({ name: 'p2', cpu: '1' }), snapshot);
    assert.equal('unschedulable' in refused && refused.message, 'the quota is spent');
  });
});
