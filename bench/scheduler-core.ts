// `npm run bench:scheduler-core`: the scheduling core alone, in memory, with no API server:
// 10,000 pods onto 5,000 synthetic nodes (test/support/scheduler/synthetic-cluster.ts).
// Prints pods/s, wall and CPU time per pod, the cost of confirming bindings and of building the
// snapshot; `npm run bench:scheduler` measures the whole path through a real server. Prints
// figures; never fails on time.
import type { KubeObject } from '../src/api/meta.js';
import { createScheduler } from '../src/scheduler/index.js';
import { seededRandom, snapshotOf } from '../test/support/scheduler/builders.js';
import { clusterNodes, workloadPods } from '../test/support/scheduler/synthetic-cluster.js';

const NODES = Number(process.env['BENCH_NODES'] ?? 5_000);
const PODS = Number(process.env['BENCH_SCHED_PODS'] ?? 10_000);

function main(): void {
  const nodes = clusterNodes(NODES);
  const pods = workloadPods(PODS);
  const buildStart = performance.now();
  const snapshot = snapshotOf(nodes);
  const buildMs = performance.now() - buildStart;
  const scheduler = createScheduler({ random: seededRandom() });

  const bound: KubeObject[] = [];
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  for (const pod of pods) {
    const result = scheduler.schedulePod(pod, snapshot);
    if ('unschedulable' in result) throw new Error(`${pod.metadata.name}: ${result.message}`);
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
  console.log(`drover scheduler core: ${PODS} pods onto ${NODES} nodes, in memory\n`);
  console.log(
    `scheduled in ${scheduleMs.toFixed(0)} ms = ${Math.round(PODS / (scheduleMs / 1000))} pods/s ` +
      `(${((scheduleMs * 1000) / PODS).toFixed(0)} µs/pod wall, ${cpuUsPerPod.toFixed(0)} µs/pod CPU = ${Math.round(1e6 / cpuUsPerPod)} pods/s per core)`,
  );
  console.log(`confirming bindings: ${((confirmMs * 1000) / PODS).toFixed(1)} µs/pod`);
  console.log(`snapshot of ${NODES} nodes built in ${buildMs.toFixed(0)} ms; ${used} nodes used`);
}

main();
