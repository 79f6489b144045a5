// The Job controller against a real API server. No agents run here: the test plays them by
// writing pod status through the API, as each test's `outcome` says.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { metaTime, type KubeObject } from '../../api/meta.js';
import { isNotFound, resources, type ApiClient } from '../../client/index.js';
import { startControllerTest, type ControllerTestBed } from '../../../test/support/controllers/controller-test.js';
import { JobController } from './job-controller.js';
import { completionIndexOf, type Job, type JobCondition } from './types.js';
import { waitFor } from '../../../test/support/wait-for.js';
import type { Pod, RestartPolicy } from '../../api/core/index.js';
import { transactionOf } from '../../../test/support/controllers/transactions.js';

type Outcome = 'succeed' | 'fail' | 'run' | { run: true; restarts: number } | undefined;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('job controller', () => {
  let bed: ControllerTestBed;
  let api: ApiClient;
  let agentStopped = false;
  let agentLoop: Promise<void>;
  /** What the fake agent does with each job's pods. */
  const outcomes = new Map<string, (pod: Pod) => Outcome>();

  const jobClient = () => api.resource<Job>(resources.jobs, 'default');
  const podClient = () => api.resource<Pod>(resources.pods, 'default');

  before(async () => {
    bed = await startControllerTest((ctx) => new JobController(ctx, { podFailureBackoff: { baseMs: 20, maxMs: 100 } }));
    api = bed.api;
    agentLoop = (async () => {
      while (!agentStopped) {
        await playAgent().catch(() => undefined);
        await sleep(20);
      }
    })();
  });
  after(async () => {
    agentStopped = true;
    await agentLoop;
    await bed.close();
  });

  async function playAgent(): Promise<void> {
    for (const pod of (await podClient().list()).items) {
      if (pod.metadata.deletionTimestamp || pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') continue;
      const outcome = outcomes.get(pod.metadata.labels?.['job-name'] ?? '')?.(pod);
      if (outcome === undefined) continue;
      const restarts = typeof outcome === 'object' ? outcome.restarts : 0;
      if (
        (outcome === 'run' || typeof outcome === 'object') &&
        pod.status?.phase === 'Running' &&
        (pod.status.containerStatuses?.[0]?.restartCount ?? 0) === restarts
      )
        continue;
      await podClient().patch(pod.metadata.name!, 'merge', { status: statusFor(outcome) }, { subresource: 'status' });
    }
  }

  function statusFor(outcome: Exclude<Outcome, undefined>) {
    const at = metaTime();
    const running = outcome === 'run' || typeof outcome === 'object';
    const exitCode = outcome === 'fail' ? 1 : 0;
    const state = running
      ? { running: { startedAt: at } }
      : { terminated: { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: at, finishedAt: at } };
    return {
      phase: running ? 'Running' : outcome === 'fail' ? 'Failed' : 'Succeeded',
      conditions: [{ type: 'Ready', status: running ? 'True' : 'False', lastTransitionTime: at }],
      containerStatuses: [
        { name: 'main', state, ready: running, restartCount: typeof outcome === 'object' ? outcome.restarts : 0, image: 'drover-test/busybox:1', imageID: '' },
      ],
    };
  }

  function manifest(name: string, spec: Partial<Job['spec']> = {}, restartPolicy: RestartPolicy = 'Never'): Job {
    return {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name, namespace: 'default' },
      spec: {
        ...spec,
        template: { spec: { restartPolicy, containers: [{ name: 'main', image: 'drover-test/busybox:1', command: ['sh', '-c', 'true'] }] } },
      },
    };
  }

  async function podsOf(job: KubeObject): Promise<Pod[]> {
    return (await podClient().list()).items.filter((p) => p.metadata.ownerReferences?.some((r) => r.uid === job.metadata.uid));
  }

  const activePods = async (job: KubeObject) =>
    (await podsOf(job)).filter((p) => !p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');

  async function condition(name: string, type: string): Promise<JobCondition | undefined> {
    const job = await jobClient().get(name);
    return job.status?.conditions?.find((c) => c.type === type && c.status === 'True');
  }

  async function events(name: string): Promise<Array<{ reason: string; message: string }>> {
    const list = await api.resource(resources.events, 'default').list();
    return list.items
      .filter((e) => (e['involvedObject'] as { name: string; kind: string }).name === name && (e['involvedObject'] as { kind: string }).kind === 'Job')
      .map((e) => ({ reason: String(e['reason']), message: String(e['message']) }));
  }

  it('runs parallelism pods at a time until completions succeeded, then is Complete', async () => {
    let phase: Outcome = 'run';
    outcomes.set('pi', () => phase);
    const job = await jobClient().create(manifest('pi', { completions: 3, parallelism: 2 }));
    await waitFor('two active pods', async () => (await activePods(job)).length === 2);
    const status = await waitFor('active 2, ready 2', async () => {
      const s = (await jobClient().get('pi')).status;
      return s?.active === 2 && s.ready === 2 ? s : undefined;
    });
    assert.ok(status.startTime);
    await sleep(150);
    assert.equal((await podsOf(job)).length, 2, 'no more than parallelism');
    const [pod] = await podsOf(job);
    assert.deepEqual(pod!.metadata.finalizers, ['batch.kubernetes.io/job-tracking']);
    for (const label of ['batch.kubernetes.io/controller-uid', 'controller-uid']) assert.equal(pod!.metadata.labels?.[label], job.metadata.uid);
    for (const label of ['batch.kubernetes.io/job-name', 'job-name']) assert.equal(pod!.metadata.labels?.[label], 'pi');
    phase = 'succeed';
    const complete = await waitFor('Complete', () => condition('pi', 'Complete'));
    assert.equal(complete.reason, 'CompletionsReached');
    const done = (await jobClient().get('pi')).status!;
    assert.deepEqual([done.succeeded, done.failed ?? 0, done.active, done.ready], [3, 0, 0, 0]);
    assert.ok(done.completionTime);
    assert.deepEqual(done.uncountedTerminatedPods ?? {}, {});
    const pods = await podsOf(job);
    assert.equal(pods.length, 3);
    assert.ok(
      pods.every((p) => (p.metadata.finalizers ?? []).length === 0),
      'finalizers released',
    );
    await waitFor('SuccessfulCreate and Completed events', async () => {
      const reasons = (await events('pi')).map((e) => e.reason);
      return reasons.includes('SuccessfulCreate') && reasons.includes('Completed');
    });
    const launch = await waitFor('launch Succeeded', async () => {
      const tx = await transactionOf(api, job, 'launch');
      return tx?.status?.phase === 'Succeeded' ? tx : undefined;
    });
    assert.equal(launch.status?.progress, '3/3');
  });

  it('stops at backoffLimit + 1 failed pods with BackoffLimitExceeded', async () => {
    outcomes.set('fails', () => 'fail');
    const job = await jobClient().create(manifest('fails', { backoffLimit: 2 }));
    const failed = await waitFor('Failed', () => condition('fails', 'Failed'));
    assert.equal(failed.reason, 'BackoffLimitExceeded');
    await sleep(200);
    const status = (await jobClient().get('fails')).status!;
    assert.deepEqual([status.failed, status.succeeded ?? 0, status.active], [3, 0, 0]);
    assert.equal((await podsOf(job)).length, 3);
    await waitFor('a BackoffLimitExceeded event', async () => (await events('fails')).some((e) => e.reason === 'BackoffLimitExceeded'));
    await waitFor('launch Failed', async () => (await transactionOf(api, job, 'launch'))?.status?.phase === 'Failed');
  });

  it('counts a finished pod once even when it is deleted right away', async () => {
    outcomes.set('gone', () => 'run');
    const job = await jobClient().create(manifest('gone', { completions: 2, parallelism: 2 }));
    const pods = await waitFor('two running pods', async () => {
      const active = await activePods(job);
      return active.length === 2 && active.every((p) => p.status?.phase === 'Running') ? active : undefined;
    });
    for (const pod of pods) {
      await podClient().patch(pod.metadata.name!, 'merge', { status: statusFor('succeed') }, { subresource: 'status' });
      await podClient().delete(pod.metadata.name!);
    }
    await waitFor('Complete', () => condition('gone', 'Complete'));
    const status = (await jobClient().get('gone')).status!;
    assert.deepEqual([status.succeeded, status.failed ?? 0], [2, 0]);
    await waitFor('the deleted pods gone once counted', async () => (await podsOf(job)).length === 0);
  });

  it('counts a running pod deleted by someone else as failed and replaces it', async () => {
    outcomes.set('evicted', () => 'run');
    const job = await jobClient().create(manifest('evicted', { completions: 1 }));
    const [pod] = await waitFor('a running pod', async () => {
      const active = await activePods(job);
      return active.length === 1 && active[0]!.status?.phase === 'Running' ? active : undefined;
    });
    await podClient().delete(pod!.metadata.name!);
    await waitFor('failed 1', async () => (await jobClient().get('evicted')).status?.failed === 1);
    const replacement = await waitFor('a replacement', async () => (await activePods(job)).find((p) => p.metadata.uid !== pod!.metadata.uid));
    outcomes.set('evicted', () => 'succeed');
    await waitFor('Complete', () => condition('evicted', 'Complete'));
    assert.ok(replacement);
  });

  it('gives an Indexed job one pod per index and reports completedIndexes', async () => {
    const failedOnce = new Set<number>();
    outcomes.set('idx', (pod) => {
      const index = completionIndexOf(pod);
      if (index === 1 && !failedOnce.has(1)) {
        failedOnce.add(1);
        return 'fail';
      }
      return 'succeed';
    });
    const job = await jobClient().create(manifest('idx', { completions: 3, parallelism: 3, completionMode: 'Indexed' }));
    await waitFor('Complete', () => condition('idx', 'Complete'));
    const status = (await jobClient().get('idx')).status!;
    assert.deepEqual([status.completedIndexes, status.succeeded, status.failed], ['0-2', 3, 1]);
    const pods = await podsOf(job);
    assert.equal(pods.length, 4);
    const second = pods.filter((p) => completionIndexOf(p) === 1);
    assert.equal(second.length, 2, 'index 1 retried');
    for (const pod of pods) {
      const index = completionIndexOf(pod)!;
      assert.equal(pod.spec.hostname, `idx-${index}`);
      assert.ok(pod.metadata.name!.startsWith(`idx-${index}-`));
      assert.equal(pod.metadata.labels?.['batch.kubernetes.io/job-completion-index'], String(index));
      const env = pod.spec.containers?.[0]?.env?.find((e) => e.name === 'JOB_COMPLETION_INDEX');
      assert.deepEqual(env?.valueFrom, { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } });
    }
  });

  it('fails with DeadlineExceeded after activeDeadlineSeconds, deleting its running pods', async () => {
    outcomes.set('slow', () => 'run');
    // Three seconds, not one: a loaded machine must still see both pods run before the deadline.
    const job = await jobClient().create(manifest('slow', { parallelism: 2, completions: 4, activeDeadlineSeconds: 3 }));
    await waitFor('two active pods', async () => (await activePods(job)).length === 2);
    const failed = await waitFor('Failed', () => condition('slow', 'Failed'), 10_000);
    assert.equal(failed.reason, 'DeadlineExceeded');
    await waitFor('pods deleted', async () => (await podsOf(job)).length === 0);
    const status = (await jobClient().get('slow')).status!;
    assert.deepEqual([status.active, status.failed], [0, 2]);
    await waitFor('a DeadlineExceeded event', async () => (await events('slow')).some((e) => e.reason === 'DeadlineExceeded'));
  });

  it('counts container restarts against backoffLimit with restartPolicy OnFailure', async () => {
    outcomes.set('flaky', () => ({ run: true, restarts: 2 }));
    await jobClient().create(manifest('flaky', { backoffLimit: 2 }, 'OnFailure'));
    const failed = await waitFor('Failed', () => condition('flaky', 'Failed'));
    assert.equal(failed.reason, 'BackoffLimitExceeded');
  });

  it('deletes a finished Job after ttlSecondsAfterFinished', async () => {
    outcomes.set('brief', () => 'succeed');
    await jobClient().create(manifest('brief', { ttlSecondsAfterFinished: 0 }));
    await waitFor('the job deleted', async () => {
      try {
        await jobClient().get('brief');
        return false;
      } catch (error) {
        return isNotFound(error);
      }
    });
  });

  it('creates no pods while suspended, and removes them (not as failures) when suspended again', async () => {
    outcomes.set('later', () => 'run');
    const job = await jobClient().create(manifest('later', { suspend: true, parallelism: 2, completions: 2 }));
    await waitFor('Suspended', () => condition('later', 'Suspended'));
    assert.equal((await podsOf(job)).length, 0);
    assert.equal((await jobClient().get('later')).status?.startTime, undefined);
    await jobClient().patch('later', 'merge', { spec: { suspend: false } });
    await waitFor('two running pods', async () => (await activePods(job)).filter((p) => p.status?.phase === 'Running').length === 2);
    const resumed = (await jobClient().get('later')).status!;
    assert.ok(resumed.startTime);
    assert.equal(resumed.conditions?.find((c) => c.type === 'Suspended')?.reason, 'JobResumed');
    await jobClient().patch('later', 'merge', { spec: { suspend: true } });
    await waitFor('pods removed', async () => (await podsOf(job)).length === 0);
    await sleep(100);
    const status = (await jobClient().get('later')).status!;
    assert.deepEqual([status.active, status.failed ?? 0], [0, 0]);
  });

  it('releases the finalizers of pods whose Job is gone', async () => {
    outcomes.set('orphan', () => 'run');
    const job = await jobClient().create(manifest('orphan'));
    const [pod] = await waitFor('a pod', async () => {
      const active = await activePods(job);
      return active.length === 1 ? active : undefined;
    });
    await jobClient().delete('orphan', { propagationPolicy: 'Orphan' });
    await waitFor('finalizer released', async () => ((await podClient().get(pod!.metadata.name!)).metadata.finalizers ?? []).length === 0);
    await podClient().delete(pod!.metadata.name!);
  });
});
