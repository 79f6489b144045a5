// The scheduling core on the synthetic cluster its benchmark uses (bench/scheduler-core.ts),
// at a size a test can afford: every pod placed, within each node's allocatable, none on a
// tainted node it does not tolerate, one replica per node for workloads that ask for it, and
// every assumed binding confirmed when the informer delivers it. Behaviour only; the benchmark
// prints the figures.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { KubeObject } from '../api/meta.js';
import { createScheduler } from './index.js';
import { seededRandom, snapshotOf } from '../../test/support/scheduler/builders.js';
import { clusterNodes, UNIQUE_HOSTNAME, workloadPods } from '../../test/support/scheduler/synthetic-cluster.js';

const NODES = 50;
const PODS = 1_000;

it(`places ${PODS} pods of mixed workloads onto ${NODES} nodes as their constraints ask`, () => {
  const snapshot = snapshotOf(clusterNodes(NODES));
  const scheduler = createScheduler({ random: seededRandom() });
  const bound: KubeObject[] = [];
  for (const pod of workloadPods(PODS)) {
    const result = scheduler.schedulePod(pod, snapshot);
    if ('unschedulable' in result) assert.fail(`${pod.metadata.name}: ${result.message}`);
    bound.push({ ...pod, spec: { ...(pod['spec'] as object), nodeName: result.node } });
  }
  for (const pod of bound) snapshot.addPod(pod);

  assert.equal(snapshot.podCount, PODS, 'every binding confirmed once');
  const nodes = [...snapshot.nodes];
  assert.deepEqual(
    nodes.filter((n) => n.podCount > 0 && n.taints.length > 0).map((n) => n.name),
    [],
    'tainted nodes stay empty',
  );
  assert.deepEqual(
    nodes.filter((n) => n.reqMilliCpu > n.allocMilliCpu || n.reqMemory > n.allocMemory).map((n) => n.name),
    [],
    'no node is given more than it has',
  );
  const uniqueNodes = new Map<string, string[]>();
  for (const pod of bound) {
    if (pod.metadata.annotations?.['drover.dev/constraints'] !== UNIQUE_HOSTNAME) continue;
    const app = pod.metadata.labels!['app']!;
    uniqueNodes.set(app, [...(uniqueNodes.get(app) ?? []), (pod['spec'] as { nodeName: string }).nodeName]);
  }
  assert.ok(uniqueNodes.size > 0);
  for (const [app, placed] of uniqueNodes) assert.equal(new Set(placed).size, placed.length, `${app}: one replica per node`);
});
