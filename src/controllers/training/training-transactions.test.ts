// A training job's Transactions as the observer records them, against a real API server with
// the PyTorchJob controller. No agents run here: the test plays them by writing pod status.
// launch: begun at the start, advanced as replicas run (a worker running before the master
// changes no status field), ended by the job's end; restart: begun by a recreation, ended when
// the recreated pods run; delete: the job deleted at its ttlSecondsAfterFinished.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { metaTime } from '../../api/meta.js';
import { resources } from '../../client/index.js';
import { useControllerTest } from '../../../test/support/controllers/controller-test.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { pytorchJobController } from './training-controller.js';
import type { TrainingJob } from './types.js';
import type { Pod, PodPhase } from '../../api/core/index.js';
import { transactionOf } from '../../../test/support/controllers/transactions.js';

describe('training job transactions', () => {
  const bed = useControllerTest(pytorchJobController);
  const jobs = () => bed.api.resource<TrainingJob>(resources.pytorchjobs, 'default');
  const pods = () => bed.api.resource<Pod>(resources.pods, 'default');

  function manifest(name: string, runPolicy: TrainingJob['spec']['runPolicy'] = {}): TrainingJob {
    const replica = (replicas: number) => ({
      replicas,
      restartPolicy: 'ExitCode' as const,
      template: { spec: { containers: [{ name: 'pytorch', image: 'drover-test/busybox:1' }] } },
    });
    return {
      apiVersion: 'kubeflow.org/v1',
      kind: 'PyTorchJob',
      metadata: { name, namespace: 'default' },
      spec: { runPolicy, pytorchReplicaSpecs: { Master: replica(1), Worker: replica(2) } },
    };
  }

  /** Waits for the live pod of this name (a recreated one has a new uid) and sets its phase. */
  async function setPhase(name: string, phase: PodPhase, exitCode = 0): Promise<Pod> {
    const pod = await waitFor(`pod ${name}`, async () => (await pods().list()).items.find((p) => p.metadata.name === name && !p.metadata.deletionTimestamp));
    const at = metaTime();
    const state = phase === 'Running' ? { running: { startedAt: at } } : { terminated: { exitCode, startedAt: at, finishedAt: at } };
    const containerStatuses = [{ name: 'pytorch', state, ready: phase === 'Running', restartCount: 0, image: 'drover-test/busybox:1', imageID: '' }];
    await pods().patch(name, 'merge', { status: { phase, containerStatuses } }, { subresource: 'status' });
    return pod;
  }

  it('advances the launch as replicas run, before the status shows it, and ends it with the job', async () => {
    const job = await jobs().create(manifest('lin'));
    const launch = await waitFor('a launch 0/3', async () => (await transactionOf(bed.api, job, 'launch', 'Running'))?.status?.progress === '0/3');
    assert.ok(launch);
    assert.equal((await transactionOf(bed.api, job, 'launch'))?.spec.reason, 'PyTorchJob started');
    await setPhase('lin-worker-0', 'Running');
    await waitFor('launch 1/3 from a running worker', async () => (await transactionOf(bed.api, job, 'launch'))?.status?.progress === '1/3');
    await setPhase('lin-master-0', 'Running');
    await setPhase('lin-worker-1', 'Running');
    await waitFor('launch 3/3', async () => (await transactionOf(bed.api, job, 'launch'))?.status?.progress === '3/3');
    await setPhase('lin-master-0', 'Succeeded');
    const done = await waitFor('launch Succeeded', () => transactionOf(bed.api, job, 'launch', 'Succeeded'));
    assert.equal(done.status?.message, 'PyTorchJob default/lin is successfully completed.');
  });

  it('records a recreation as a restart, ended when the recreated pod runs', async () => {
    const job = await jobs().create(manifest('again'));
    await setPhase('again-master-0', 'Running');
    const failed = await setPhase('again-worker-1', 'Failed', 137);
    const restart = await waitFor('a restart', () => transactionOf(bed.api, job, 'restart', 'Running'));
    assert.equal(restart.spec.reason, 'recreating failed pod(s): again-worker-1');
    assert.equal(restart.status?.progress, '0/1');
    await waitFor('the failed pod recreated', async () =>
      (await pods().list()).items.some((p) => p.metadata.name === 'again-worker-1' && p.metadata.uid !== failed.metadata.uid),
    );
    // The master runs, so the job is Running again at once; the restart waits for the new worker.
    await waitFor('the job Running again', async () =>
      (await jobs().get('again')).status?.conditions?.some((c) => c.type === 'Running' && c.status === 'True'),
    );
    // The observer's writes follow the job's by a moment: look for a while, not once.
    for (let look = 0; look < 10; look++) {
      const waiting = await transactionOf(bed.api, job, 'restart');
      assert.equal(waiting?.status?.phase, 'Running', 'a recreated pod not yet running is no end of the restart');
      assert.equal(waiting?.status?.progress, '0/1');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await setPhase('again-worker-1', 'Running');
    const ended = await waitFor('restart Succeeded', () => transactionOf(bed.api, job, 'restart', 'Succeeded'));
    assert.equal(ended.status?.message, 'PyTorchJob default/again is running again');
    assert.equal((await transactionOf(bed.api, job, 'launch'))?.status?.phase, 'Running', 'the launch goes on');
  });

  it('ends the launch with a failed job, and records its deletion at ttlSecondsAfterFinished', async () => {
    const job = await jobs().create(manifest('short', { backoffLimit: 0, cleanPodPolicy: 'All', ttlSecondsAfterFinished: 0 }));
    await setPhase('short-master-0', 'Running');
    await setPhase('short-worker-0', 'Failed', 137);
    const launch = await waitFor('launch Failed', () => transactionOf(bed.api, job, 'launch', 'Failed'));
    assert.match(launch.status?.message ?? '', /has failed because it has reached the specified backoff limit/);
    await waitFor('the job deleted', async () => !(await jobs().list()).items.some((j) => j.metadata.uid === job.metadata.uid));
    const deleted = await waitFor('a delete Transaction', () => transactionOf(bed.api, job, 'delete', 'Succeeded'));
    assert.equal(deleted.spec.reason, 'ttlSecondsAfterFinished (0s) passed');
  });
});
