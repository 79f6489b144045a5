import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FailureBackoff } from './failure-backoff.js';
import { formatIndexes, parseIndexes } from './indexes.js';
import { newJobPod } from './job-pod.js';
import { pastBackoffLimitOnFailure } from './job-status.js';
import { planJobPods, planPods } from './manage-pods.js';
import { classify, flushUncounted, recordUncounted, uncountedOf } from './pod-tracking.js';
import type { Job, JobStatus } from './types.js';
import type { Pod, PodPhase } from '../../api/core/index.js';

let serial = 0;
function pod(phase: PodPhase, options: { index?: number; finalizer?: boolean; deleting?: boolean; restarts?: number } = {}): Pod {
  serial++;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `p${serial}`,
      namespace: 'default',
      uid: `u${serial}`,
      creationTimestamp: new Date(1_000_000 + serial * 1000).toISOString(),
      ...(options.finalizer === false ? {} : { finalizers: ['batch.kubernetes.io/job-tracking'] }),
      ...(options.index === undefined ? {} : { annotations: { 'batch.kubernetes.io/job-completion-index': String(options.index) } }),
      ...(options.deleting ? { deletionTimestamp: new Date().toISOString() } : {}),
    },
    spec: { containers: [] },
    status: { phase, containerStatuses: [{ name: 'c', ready: false, restartCount: options.restarts ?? 0, image: 'i', imageID: '', state: {}, lastState: {} }] },
  };
}

function job(spec: Partial<Job['spec']> = {}): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', namespace: 'default', uid: 'job-1' },
    spec: {
      parallelism: 2,
      completions: 5,
      backoffLimit: 6,
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
      ...spec,
    },
  };
}

describe('completed indexes', () => {
  it('are written as intervals, a run of two as two numbers', () => {
    assert.equal(formatIndexes([4, 0, 1, 2]), '0-2,4');
    assert.equal(formatIndexes([3, 4, 7]), '3,4,7');
    assert.equal(formatIndexes([]), '');
    assert.deepEqual([...parseIndexes('0-2,4,9', 5)].sort(), [0, 1, 2, 4]);
    assert.deepEqual([...parseIndexes('x,1', 5)], [1]);
  });
});

describe('job pods', () => {
  it('carry the labels, the finalizer and, when indexed, the completion index', () => {
    const p = newJobPod(
      job({
        completionMode: 'Indexed',
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', env: [{ name: 'A', value: '1' }] }], initContainers: [{ name: 'i' }] } },
      }),
      3,
    );
    assert.equal(p.metadata.generateName, 'pi-3-');
    assert.deepEqual(p.metadata.finalizers, ['batch.kubernetes.io/job-tracking']);
    assert.equal(p.metadata.labels?.['batch.kubernetes.io/job-name'], 'pi');
    assert.equal(p.metadata.labels?.['controller-uid'], 'job-1');
    assert.equal(p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'], '3');
    assert.equal(p.spec.hostname, 'pi-3');
    const ref = { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } };
    assert.deepEqual(p.spec.containers?.[0]?.env, [
      { name: 'A', value: '1' },
      { name: 'JOB_COMPLETION_INDEX', valueFrom: ref },
    ]);
    assert.deepEqual(p.spec.initContainers?.[0]?.env, [{ name: 'JOB_COMPLETION_INDEX', valueFrom: ref }]);
    assert.equal(newJobPod(job(), undefined).metadata.generateName, 'pi-');
    assert.equal(newJobPod(job(), undefined).spec.hostname, undefined);
  });
});

describe('pods to create and delete', () => {
  it('keeps parallelism pods running, no more than the completions missing', () => {
    assert.equal(planPods({ job: job(), active: [], succeeded: 0, succeededIndexes: new Set() }).creations.length, 2);
    assert.equal(planPods({ job: job(), active: [pod('Running')], succeeded: 4, succeededIndexes: new Set() }).creations.length, 0);
    assert.equal(planPods({ job: job(), active: [], succeeded: 4, succeededIndexes: new Set() }).creations.length, 1);
    const three = [pod('Running'), pod('Pending'), pod('Running')];
    const plan = planPods({ job: job(), active: three, succeeded: 0, succeededIndexes: new Set() });
    assert.deepEqual(plan.deletions, [three[1]]); // the pending one goes first
  });

  it('without completions, stops creating once any pod succeeded', () => {
    const workQueue = job({ completions: null, parallelism: 3 });
    assert.equal(planPods({ job: workQueue, active: [], succeeded: 0, succeededIndexes: new Set() }).creations.length, 3);
    assert.equal(planPods({ job: workQueue, active: [pod('Running')], succeeded: 1, succeededIndexes: new Set() }).creations.length, 0);
  });

  it('gives an Indexed job one pod per pending index and removes duplicates', () => {
    const indexed = job({ completionMode: 'Indexed', completions: 4, parallelism: 3 });
    const plan = planPods({ job: indexed, active: [pod('Running', { index: 1 })], succeeded: 1, succeededIndexes: new Set([0]) });
    assert.deepEqual(plan.creations, [2, 3]);
    const twins = [pod('Running', { index: 2 }), pod('Pending', { index: 2 }), pod('Running', { index: 0 })];
    assert.deepEqual(planPods({ job: indexed, active: twins, succeeded: 1, succeededIndexes: new Set([0]) }).deletions, [twins[2], twins[1]]);
  });
});

describe('tracking finished pods', () => {
  it('records outcomes once, then counts them when their finalizer is gone', () => {
    const status: JobStatus = { succeeded: 1, failed: 0 };
    const ok = pod('Succeeded');
    const bad = pod('Failed');
    const deleted = pod('Running', { deleting: true });
    const untracked = pod('Succeeded', { finalizer: false });
    const running = pod('Running');
    const uncounted = uncountedOf(status);
    const outcome = classify({ pods: [ok, bad, deleted, untracked, running], uncounted, released: new Set(), jobFinished: false });
    assert.deepEqual(outcome.newSucceeded, [ok]);
    assert.deepEqual(outcome.newFailed, [bad, deleted]);
    assert.deepEqual(outcome.releasable, [ok, bad, deleted]);
    assert.equal(recordUncounted(status, uncounted, outcome), true);
    assert.deepEqual(status.uncountedTerminatedPods, { succeeded: [ok.metadata.uid], failed: [bad.metadata.uid, deleted.metadata.uid].sort() });
    // A second pass before the finalizers went finds nothing new.
    const again = classify({ pods: [ok, bad, deleted, running], uncounted, released: new Set(), jobFinished: false });
    assert.deepEqual([again.newSucceeded, again.newFailed], [[], []]);
    // The failed pod still holds its finalizer: it stays uncounted.
    const left = flushUncounted(status, uncounted, (uid) => uid === bad.metadata.uid);
    assert.equal(left, 1);
    assert.deepEqual([status.succeeded, status.failed], [2, 1]);
    assert.deepEqual(status.uncountedTerminatedPods, { failed: [bad.metadata.uid] });
  });

  it('counts every unfinished pod of a finished job as failed', () => {
    const running = pod('Running');
    const outcome = classify({ pods: [running], uncounted: uncountedOf(undefined), released: new Set(), jobFinished: true });
    assert.deepEqual(outcome.newFailed, [running]);
  });

  it('tracks succeeded pods of Indexed jobs by their index alone', () => {
    const first = pod('Succeeded', { index: 0 });
    const twin = pod('Succeeded', { index: 0 });
    const outOfRange = pod('Succeeded', { index: 9 });
    const outcome = classify({
      pods: [first, twin, outOfRange],
      uncounted: uncountedOf(undefined),
      released: new Set(),
      jobFinished: false,
      indexed: { completions: 3, succeeded: new Set() },
    });
    assert.deepEqual(outcome.newIndexes, [0]);
    assert.deepEqual(outcome.newSucceeded, []);
    assert.equal(outcome.releasable.length, 3);
  });

  it('skips pods whose finalizer was just released', () => {
    const ok = pod('Succeeded');
    const outcome = classify({ pods: [ok], uncounted: uncountedOf(undefined), released: new Set([ok.metadata.uid!]), jobFinished: false });
    assert.deepEqual(outcome.releasable, []);
  });
});

describe('backoff', () => {
  it('counts container restarts against backoffLimit with restartPolicy OnFailure', () => {
    const onFailure = job({ backoffLimit: 2, template: { spec: { restartPolicy: 'OnFailure', containers: [] } } });
    assert.equal(pastBackoffLimitOnFailure(onFailure, [pod('Running', { restarts: 1 })]), false);
    assert.equal(pastBackoffLimitOnFailure(onFailure, [pod('Running', { restarts: 1 }), pod('Pending', { restarts: 1 })]), true);
    assert.equal(pastBackoffLimitOnFailure(job({ backoffLimit: 2 }), [pod('Running', { restarts: 5 })]), false);
    assert.equal(
      pastBackoffLimitOnFailure(job({ backoffLimit: 0, template: { spec: { restartPolicy: 'OnFailure', containers: [] } } }), [
        pod('Running', { restarts: 1 }),
      ]),
      true,
    );
  });

  it('delays replacements 10 s after a failure, doubling, until a success', () => {
    const backoff = new FailureBackoff({ baseMs: 10_000, maxMs: 25_000 });
    const now = 1_000_000;
    const first = pod('Failed');
    backoff.observe('j', 0, [first], now);
    backoff.observe('j', 0, [first], now); // the same pod seen again by a retried pass
    assert.equal(backoff.remainingMs('j', now + 4000), 6000);
    backoff.observe('j', 0, [pod('Failed')], now);
    assert.equal(backoff.remainingMs('j', now), 20_000);
    backoff.observe('j', 0, [pod('Failed')], now);
    assert.equal(backoff.remainingMs('j', now), 25_000);
    backoff.observe('j', 1, [], now);
    assert.equal(backoff.remainingMs('j', now), 0);
  });
});

describe('a Job pass', () => {
  const base = { succeeded: 0, succeededIndexes: new Set<number>(), ending: false, suspended: false, backoffMs: 0 };

  it("runs out an ending Job's pods keeping their finalizer, so that their outcome is still recorded", () => {
    const active = [pod('Running'), pod('Pending')];
    const plan = planJobPods({ ...base, job: job(), active, ending: true, backoffMs: 5000 });
    assert.deepEqual(plan, { creations: [], deletions: active, release: false });
  });

  it("removes a suspended Job's pods, releasing them first so that they do not count as failures", () => {
    const active = [pod('Running')];
    assert.deepEqual(planJobPods({ ...base, job: job({ suspend: true }), active, suspended: true }), { creations: [], deletions: active, release: true });
  });

  it('holds creations back while the failure back-off runs, and asks to look again when it ends', () => {
    const plan = planJobPods({ ...base, job: job(), active: [], backoffMs: 4000 });
    assert.deepEqual(plan, { creations: [], deletions: [], release: true, retryAfterMs: 4000 });
    assert.equal(planJobPods({ ...base, job: job(), active: [] }).creations.length, 2, 'parallelism 2 once the back-off is over');
  });

  it('deletes pods beyond parallelism even while the back-off runs', () => {
    const active = [pod('Running'), pod('Running'), pod('Pending')];
    const plan = planJobPods({ ...base, job: job(), active, backoffMs: 4000 });
    assert.equal(plan.deletions.length, 1);
    assert.equal(plan.retryAfterMs, undefined);
  });
});
