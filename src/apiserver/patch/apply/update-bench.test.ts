// Micro-benchmark of managedFields tracking on realistic objects. It prints figures and never
// asserts on time (machines differ); compare the printed µs with the targets by hand.
import { describe, it, type TestContext } from 'node:test';
import type { KubeObject } from '../../../api/meta.js';
import { realisticDeployment, realisticPod, type RealisticObject } from '../../../../test/support/apiserver/realistic-objects.js';
import { updateManagedFields, type UpdateOptions } from './update.js';

const T0 = '2024-01-01T00:00:00Z';
const T1 = '2024-01-01T00:01:00Z';
const batch = 100;
const batches = 30;

const options = (subject: RealisticObject, manager: string, now: string): UpdateOptions => ({
  manager,
  operation: 'Update',
  schema: subject.schema,
  apiVersion: subject.apiVersion,
  now,
});

interface Figures {
  best: number;
  median: number;
}

/**
 * µs per call of `run` on fresh deep copies of `input`, made before timing (a request body
 * never shares objects with the stored one). Calls are timed in short batches after a
 * warm-up, and the best and median batch are reported: the best is what the code costs, as
 * other work on a busy machine only ever adds time to a batch. Each batch's copies are made
 * just before it, so that a collection during the batch does not have to move thousands of
 * waiting copies, which no server request would pay for.
 */
function measure(input: KubeObject, run: (input: KubeObject) => void): Figures {
  for (let i = 0; i < batch * 5; i++) run(structuredClone(input));
  const times: number[] = [];
  for (let b = 0; b < batches; b++) {
    const inputs = Array.from({ length: batch }, () => structuredClone(input));
    const start = process.hrtime.bigint();
    for (const each of inputs) run(each);
    times.push(Number(process.hrtime.bigint() - start) / 1e3 / batch);
  }
  times.sort((a, b) => a - b);
  return { best: times[0] as number, median: times[times.length >> 1] as number };
}

function created(subject: RealisticObject, manager: string): KubeObject {
  const object = structuredClone(subject.object);
  updateManagedFields(undefined, object, options(subject, manager, T0));
  return object;
}

function report(t: TestContext, subject: RealisticObject, budgets?: { create: number; label: number; same: number }): void {
  const live = created(subject, 'creator');
  const relabelled = structuredClone(live);
  (relabelled.metadata.labels as Record<string, string>)['tier'] = 'backend';
  const line = (what: string, figures: Figures, budget: number | undefined): void => {
    const limit = budget === undefined ? '' : ` (target ≤ ${budget} µs)`;
    t.diagnostic(`${subject.name}: ${what}: best ${figures.best.toFixed(1)} µs, median ${figures.median.toFixed(1)} µs${limit}`);
  };
  line('create', measure(subject.object, (o) => updateManagedFields(undefined, o, options(subject, 'creator', T0))), budgets?.create);
  line('label change by its owner', measure(relabelled, (o) => updateManagedFields(live, o, options(subject, 'creator', T1))), budgets?.label);
  line('label change by another manager', measure(relabelled, (o) => updateManagedFields(live, o, options(subject, 'editor', T1))), budgets?.label);
  line('unchanged update', measure(live, (o) => updateManagedFields(live, o, options(subject, 'creator', T1))), budgets?.same);
}

describe('updateManagedFields benchmark', () => {
  it('prints µs per write for a defaulted Pod', (t) => report(t, realisticPod(), { create: 30, label: 40, same: 20 }));
  it('prints µs per write for a defaulted Deployment', (t) => report(t, realisticDeployment()));
});
