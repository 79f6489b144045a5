// Micro-benchmark of the scheduling core: 10,000 pods onto 5,000 synthetic nodes. Prints
// pods/s and per-pod latency; asserts only that every pod was placed, never on time.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { KubeObject } from '../api/meta.js';
import { createScheduler } from './index.js';
import { makeNode, makePod, seededRandom, snapshotOf } from '../../test/support/scheduler/builders.js';

const NODES = 5_000;
const PODS = 10_000;
const REPLICAS = 10;

function clusterNodes(): KubeObject[] {
  return Array.from({ length: NODES }, (_, i) =>
    makeNode({
      name: `node-${i}`,
      cpu: '8',
      memory: '32Gi',
      labels: { 'topology.kubernetes.io/zone': `zone-${i % 3}`, rack: `rack-${i % 50}` },
      ...(i % 100 === 0 ? { taints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' as const }] } : {}),
    }),
  );
}

function workloadPods(): KubeObject[] {
  return Array.from({ length: PODS }, (_, i) => {
    const app = `app-${Math.floor(i / REPLICAS)}`;
    return makePod({
      name: `${app}-${i % REPLICAS}`,
      owner: app,
      labels: { app },
      containers: [{ requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '200m', memory: '256Mi' } }],
      // Every tenth workload asks for one replica per node, the original scheduler's favourite.
      ...(Math.floor(i / REPLICAS) % 10 === 0 ? { annotations: { 'drover.dev/constraints': '[["hostname","UNIQUE"]]' } } : {}),
      spec: {
        tolerations: [
          { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
          { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        ],
      },
    });
  });
}

it(`schedules ${PODS} pods onto ${NODES} nodes (prints pods/s)`, () => {
  const nodes = clusterNodes();
  const pods = workloadPods();
  const buildStart = performance.now();
  const snapshot = snapshotOf(nodes);
  const buildMs = performance.now() - buildStart;
  const scheduler = createScheduler({ random: seededRandom() });

  const bound: KubeObject[] = [];
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  for (const pod of pods) {
    const result = scheduler.schedulePod(pod, snapshot);
    if ('unschedulable' in result) assert.fail(result.message);
    bound.push({ ...pod, spec: { ...(pod['spec'] as object), nodeName: result.node } });
  }
  const scheduleMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const cpuUsPerPod = (cpu.user + cpu.system) / PODS;

  // The informer then delivers each bound pod, confirming the assumption.
  const confirmStart = performance.now();
  for (const pod of bound) snapshot.addPod(pod);
  const confirmMs = performance.now() - confirmStart;

  const used = new Set(bound.map((p) => (p['spec'] as { nodeName: string }).nodeName)).size;
  console.log(
    `scheduler core: ${PODS} pods on ${NODES} nodes in ${scheduleMs.toFixed(0)} ms = ` +
      `${Math.round(PODS / (scheduleMs / 1000))} pods/s (${((scheduleMs * 1000) / PODS).toFixed(0)} µs/pod wall, ` +
      `${cpuUsPerPod.toFixed(0)} µs/pod CPU = ${Math.round(1e6 / cpuUsPerPod)} pods/s per core); ` +
      `confirming bindings ${((confirmMs * 1000) / PODS).toFixed(1)} µs/pod; snapshot of ${NODES} nodes built in ${buildMs.toFixed(0)} ms; ` +
      `${used} nodes used`,
  );
  assert.equal(snapshot.podCount, PODS);
  assert.equal([...snapshot.nodes].filter((n) => n.podCount > 0 && n.taints.length > 0).length, 0, 'tainted nodes stay empty');
});
