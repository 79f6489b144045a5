// Pods without the pod-group label pay one label lookup per stage for gang scheduling: the
// same 10,000 plain pods onto 1,000 nodes with and without the coscheduling plugin in the
// pipeline, alternated to even out a shared machine. Prints CPU per pod; asserts only placement.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildPipeline } from '../framework.js';
import { defaultPlugins } from '../plugins/index.js';
import { makeNode, makePod, seededRandom, snapshotOf } from '../../../test/support/scheduler/builders.js';
import { WaitingPods } from '../waiting-pods.js';
import { Coscheduling } from './coscheduling.js';
import { PodGroupManager } from './pod-group-manager.js';

const NODES = 1_000;
const PODS = 5_000;

function cpuPerPod(withGangs: boolean): number {
  const snapshot = snapshotOf(Array.from({ length: NODES }, (_, i) => makeNode({ name: `n${i}`, cpu: '32', memory: '64Gi' })));
  const extra = withGangs ? [new Coscheduling(new PodGroupManager({ group: () => undefined, members: () => [] }), new WaitingPods())] : [];
  const framework = buildPipeline([...defaultPlugins(), ...extra], { random: seededRandom() });
  const pods = Array.from({ length: PODS }, (_, i) => makePod({ name: `p${i}`, owner: `app-${i % 100}`, labels: { app: `app-${i % 100}` }, cpu: '100m' }));
  const start = process.cpuUsage();
  for (const pod of pods) assert.equal('unschedulable' in framework.schedulePod(pod, snapshot), false);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / PODS;
}

it(`plain pods cost the same with the coscheduling plugin (${PODS} pods, ${NODES} nodes; prints µs/pod)`, () => {
  const runs = { plain: [] as number[], gangs: [] as number[] };
  for (let round = 0; round < 3; round++) {
    runs.plain.push(cpuPerPod(false));
    runs.gangs.push(cpuPerPod(true));
  }
  const best = (values: number[]) => Math.min(...values);
  console.log(
    `scheduling cycle CPU per plain pod: ${best(runs.plain).toFixed(1)} µs without, ${best(runs.gangs).toFixed(1)} µs with the coscheduling plugin (best of 3)`,
  );
});
