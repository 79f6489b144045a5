// `npm run bench:write-path`: what each write costs the API server in-process, per object — the
// schema check of admission and managedFields tracking — on objects as the server stores them
// (test/support/apiserver/realistic-objects.ts). Prints µs per call; never fails on time
// (machines differ): compare the figures with the targets printed beside them.
import type { KubeObject } from '../src/api/meta.js';
import { checkSchema } from '../src/api/validation/check-schema.js';
import { updateManagedFields, type UpdateOptions } from '../src/apiserver/patch/apply/update.js';
import { realisticDeployment, realisticPod, type RealisticObject } from '../test/support/apiserver/realistic-objects.js';

const T0 = '2024-01-01T00:00:00Z';
const T1 = '2024-01-01T00:01:00Z';
const BATCH = 100;
const BATCHES = 30;

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
  for (let i = 0; i < BATCH * 5; i++) run(structuredClone(input));
  const times: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const inputs = Array.from({ length: BATCH }, () => structuredClone(input));
    const start = process.hrtime.bigint();
    for (const each of inputs) run(each);
    times.push(Number(process.hrtime.bigint() - start) / 1e3 / BATCH);
  }
  times.sort((a, b) => a - b);
  return { best: times[0]!, median: times[times.length >> 1]! };
}

function line(subject: RealisticObject, what: string, figures: Figures, budget?: number): void {
  const target = budget === undefined ? '' : ` (target ≤ ${budget} µs)`;
  console.log(`${subject.name}: ${what}: best ${figures.best.toFixed(1)} µs, median ${figures.median.toFixed(1)} µs${target}`);
}

/** Admission's schema check in Strict field validation (unknown fields reported, not pruned). */
function schemaCheck(subject: RealisticObject): void {
  line(
    subject,
    'schema check',
    measure(subject.object, (o) => checkSchema(subject.schema, o, { unknownFields: 'report' })),
  );
}

function managedFields(subject: RealisticObject, budgets?: { create: number; label: number; same: number }): void {
  const options = (manager: string, now: string): UpdateOptions => ({
    manager,
    operation: 'Update',
    schema: subject.schema,
    apiVersion: subject.apiVersion,
    now,
  });
  const live = structuredClone(subject.object);
  updateManagedFields(undefined, live, options('creator', T0));
  const relabelled = structuredClone(live);
  (relabelled.metadata.labels as Record<string, string>)['tier'] = 'backend';
  line(
    subject,
    'managedFields on create',
    measure(subject.object, (o) => updateManagedFields(undefined, o, options('creator', T0))),
    budgets?.create,
  );
  line(
    subject,
    'managedFields, label change by its owner',
    measure(relabelled, (o) => updateManagedFields(live, o, options('creator', T1))),
    budgets?.label,
  );
  line(
    subject,
    'managedFields, label change by another manager',
    measure(relabelled, (o) => updateManagedFields(live, o, options('editor', T1))),
    budgets?.label,
  );
  line(
    subject,
    'managedFields, unchanged update',
    measure(live, (o) => updateManagedFields(live, o, options('creator', T1))),
    budgets?.same,
  );
}

const pod = realisticPod();
const deployment = realisticDeployment();
console.log(`drover write-path benchmark: µs per call, best and median of ${BATCHES} batches of ${BATCH}\n`);
schemaCheck(pod);
schemaCheck(deployment);
managedFields(pod, { create: 30, label: 40, same: 20 });
managedFields(deployment);
