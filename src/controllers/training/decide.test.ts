import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decide, isRetryableExitCode } from './decide.js';
import { pytorchController } from './pytorch.js';
import { tensorflowController } from './tensorflow.js';
import { pytorchJob, pytorchPods, replica, replicaPod, tfJob } from '../../../test/support/controllers/training-builders.js';
import type { PodPhase } from '../../api/core/index.js';

const NOW = 1_000_000 + 60_000;
const exitCodeJob = (runPolicy = {}, status = {}) =>
  pytorchJob(
    {
      runPolicy,
      pytorchReplicaSpecs: {
        Master: replica('pytorch', { restartPolicy: 'ExitCode' }),
        Worker: replica('pytorch', { replicas: 3, restartPolicy: 'ExitCode' }),
      },
    },
    status,
  );

describe('training job decisions', () => {
  it("retries exit codes of 128 and more (signals), not the program's own 1-127", () => {
    assert.equal(isRetryableExitCode(137), true);
    assert.equal(isRetryableExitCode(128), true);
    assert.equal(isRetryableExitCode(127), false);
    assert.equal(isRetryableExitCode(1), false);
  });

  it('ExitCode 137: the pod is recreated, the job restarts, and the recreation counts', () => {
    const failed = replicaPod('Worker', 1, { phase: 'Failed', exitCode: 137 });
    const d = decide({ fc: pytorchController, job: exitCodeJob({ backoffLimit: 3 }), pods: pytorchPods(failed), nowMs: NOW });
    assert.equal(d.finish, undefined);
    assert.deepEqual(
      d.recreate.map((p) => p.metadata.name),
      ['mnist-worker-1'],
    );
    assert.equal(d.newRestarts, 1);
    assert.match(d.restarting ?? '', /mnist-worker-1/);
    assert.equal(d.running, false, 'Restarting replaces Running');
  });

  it('a failed pod whose recreation was counted but whose deletion failed is deleted again, not counted again', () => {
    const failed = { ...replicaPod('Worker', 1, { phase: 'Failed', exitCode: 137 }), failureCounted: true };
    const d = decide({ fc: pytorchController, job: exitCodeJob({ backoffLimit: 1 }, { restarts: 1 }), pods: pytorchPods(failed), nowMs: NOW });
    assert.equal(d.finish, undefined);
    assert.deepEqual(
      d.recreate.map((p) => p.metadata.name),
      ['mnist-worker-1'],
    );
    assert.equal(d.newRestarts, 0);
  });

  it('ExitCode 1: the job fails at once, never Restarting (kubeflow/trainer#2044)', () => {
    const failed = replicaPod('Worker', 1, { phase: 'Failed', exitCode: 1 });
    const d = decide({ fc: pytorchController, job: exitCodeJob({ backoffLimit: 3 }), pods: pytorchPods(failed), nowMs: NOW });
    assert.equal(d.finish?.type, 'Failed');
    assert.equal(d.finish?.reason, 'PyTorchJobFailed');
    assert.match(d.finish?.message ?? '', /exit code 1/);
    assert.equal(d.restarting, undefined);
    assert.deepEqual(d.recreate, []);
  });

  it("a recreation past backoffLimit fails the job, though the new pod's restartCount is 0 (kubeflow/trainer#2045)", () => {
    const failed = replicaPod('Master', 0, { phase: 'Failed', exitCode: 137, restarts: 0 });
    const d = decide({ fc: pytorchController, job: exitCodeJob({ backoffLimit: 2 }, { restarts: 2 }), pods: pytorchPods(failed), nowMs: NOW });
    assert.equal(d.finish?.type, 'Failed');
    assert.match(d.finish?.message ?? '', /backoff limit/);
    assert.deepEqual(d.recreate, []);
  });

  it('in-place container restarts count against backoffLimit', () => {
    const job = pytorchJob({ runPolicy: { backoffLimit: 2 } }, { restarts: 1 });
    const ok = decide({ fc: pytorchController, job, pods: pytorchPods(replicaPod('Worker', 0, { restarts: 1, newRestarts: 1 })), nowMs: NOW });
    assert.equal(ok.finish, undefined);
    assert.equal(ok.newRestarts, 1);
    const past = decide({ fc: pytorchController, job, pods: pytorchPods(replicaPod('Worker', 0, { restarts: 2, newRestarts: 2 })), nowMs: NOW });
    assert.equal(past.finish?.type, 'Failed');
  });

  it('OnFailure pods that fail as pods (evicted, deadline) are recreated and counted', () => {
    const d = decide({ fc: pytorchController, job: pytorchJob(), pods: pytorchPods(replicaPod('Worker', 2, { phase: 'Failed' })), nowMs: NOW });
    assert.deepEqual(
      d.recreate.map((p) => p.metadata.name),
      ['mnist-worker-2'],
    );
    assert.equal(d.newRestarts, 1);
  });

  it('Never: a failed replica fails the job', () => {
    const job = pytorchJob({
      pytorchReplicaSpecs: { Master: replica('pytorch', { restartPolicy: 'Never' }), Worker: replica('pytorch', { replicas: 3, restartPolicy: 'Never' }) },
    });
    const d = decide({ fc: pytorchController, job, pods: pytorchPods(replicaPod('Worker', 0, { phase: 'Failed', exitCode: 137 })), nowMs: NOW });
    assert.equal(d.finish?.type, 'Failed');
  });

  it('restartScope Gang: one failure recreates every pod and counts once', () => {
    const job = pytorchJob({ runPolicy: { restartScope: 'Gang', backoffLimit: 1 } });
    const pods = pytorchPods(replicaPod('Worker', 0, { phase: 'Failed', exitCode: 137 }), replicaPod('Worker', 1, { phase: 'Failed', exitCode: 1 }));
    const d = decide({ fc: pytorchController, job, pods, nowMs: NOW });
    assert.equal(d.gang, true);
    assert.equal(d.recreate.length, 4);
    assert.equal(d.newRestarts, 1);
    assert.deepEqual(d.create, [], 'the gang is created again once all of it is gone');
    const again = decide({ fc: pytorchController, job: { ...job, status: { ...job.status, restarts: 1 } }, pods, nowMs: NOW });
    assert.equal(again.finish?.type, 'Failed', 'the second gang restart passes backoffLimit 1');
  });

  it('activeDeadlineSeconds fails the job from status.startTime', () => {
    const job = pytorchJob({ runPolicy: { activeDeadlineSeconds: 60 } });
    assert.equal(decide({ fc: pytorchController, job, pods: pytorchPods(), nowMs: NOW - 1 }).finish, undefined);
    assert.match(decide({ fc: pytorchController, job, pods: pytorchPods(), nowMs: NOW }).finish?.message ?? '', /deadline/);
  });

  it('creates the missing replicas; Running when the master runs; Succeeded when it succeeded', () => {
    const d = decide({ fc: pytorchController, job: pytorchJob(), pods: [replicaPod('Master', 0)], nowMs: NOW });
    assert.deepEqual(d.create, [
      { type: 'Worker', index: 0 },
      { type: 'Worker', index: 1 },
      { type: 'Worker', index: 2 },
    ]);
    assert.equal(d.running, true);
    const done = decide({
      fc: pytorchController,
      job: pytorchJob(),
      pods: pytorchPods(replicaPod('Master', 0, { phase: 'Succeeded', exitCode: 0 })),
      nowMs: NOW,
    });
    assert.equal(done.finish?.type, 'Succeeded');
    assert.equal(done.finish?.reason, 'PyTorchJobSucceeded');
  });

  it('TFJob success: the chief; worker 0 without a chief; every worker with AllWorkers', () => {
    const tf = (phases: Record<string, PodPhase>) =>
      Object.entries(phases).map(([k, phase]) => {
        const [type, index] = k.split('/');
        return replicaPod(type!, Number(index), { phase, container: 'tensorflow' });
      });
    const chief = tfJob();
    assert.equal(
      decide({
        fc: tensorflowController,
        job: chief,
        pods: tf({ 'Chief/0': 'Succeeded', 'PS/0': 'Running', 'Worker/0': 'Running', 'Worker/1': 'Running' }),
        nowMs: NOW,
      }).finish?.type,
      'Succeeded',
    );
    const noChief = tfJob({ tfReplicaSpecs: { PS: replica('tensorflow'), Worker: replica('tensorflow', { replicas: 2 }) } });
    assert.equal(
      decide({ fc: tensorflowController, job: noChief, pods: tf({ 'PS/0': 'Running', 'Worker/0': 'Succeeded', 'Worker/1': 'Running' }), nowMs: NOW }).finish
        ?.type,
      'Succeeded',
    );
    const all = { ...noChief, spec: { ...noChief.spec, successPolicy: 'AllWorkers' as const } };
    assert.equal(
      decide({ fc: tensorflowController, job: all, pods: tf({ 'PS/0': 'Running', 'Worker/0': 'Succeeded', 'Worker/1': 'Running' }), nowMs: NOW }).finish,
      undefined,
    );
    assert.equal(
      decide({ fc: tensorflowController, job: all, pods: tf({ 'PS/0': 'Running', 'Worker/0': 'Succeeded', 'Worker/1': 'Succeeded' }), nowMs: NOW }).finish
        ?.type,
      'Succeeded',
    );
  });

  it('TFJob enableDynamicWorker ignores worker failures', () => {
    const pods = [
      replicaPod('Chief', 0, { container: 'tensorflow' }),
      replicaPod('PS', 0, { container: 'tensorflow' }),
      replicaPod('Worker', 0, { phase: 'Failed', exitCode: 1, container: 'tensorflow' }),
      replicaPod('Worker', 1, { container: 'tensorflow' }),
    ];
    assert.equal(decide({ fc: tensorflowController, job: tfJob(), pods, nowMs: NOW }).finish?.type, 'Failed');
    assert.equal(decide({ fc: tensorflowController, job: tfJob({ enableDynamicWorker: true }), pods, nowMs: NOW }).finish, undefined);
  });
});
