// bench:gpu's check (d) judges what it is shown (nothing here runs a job or needs a GPU): the
// replicas' JSON lines are found among PyTorch's other output, and a run passes only when the job
// Succeeded in a gang of both replicas, each saw exactly the GPUs it was given, and the training
// was shared; the dry run's stand-in gets SKIP for the training alone, never for the rest.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { POD_GROUP_LABEL } from '../src/api/schemas/scheduling.js';
import { parseReplicaReport } from '../bench/gpu-train-program.js';
import { judgeTraining } from '../bench/gpu-training-check.js';
import type { TrainingRun } from '../bench/gpu-training.js';

const UUIDS = ['GPU-aaaa', 'GPU-bbbb'];

function line(fields: Record<string, unknown>): string {
  return JSON.stringify({
    world_size: 2,
    rendezvous: '127.0.0.1:24313',
    first_loss: 0.61,
    loss: 0.42,
    weight_drift: 0,
    ...fields,
  });
}

const MASTER = { rank: 0, device: 'cuda', device_name: 'NVIDIA H100', device_count: 1, cuda_visible_devices: 'GPU-aaaa', nvidia_visible_devices: 'GPU-aaaa' };
const CPU_WORKER = { rank: 1, device: 'cpu', device_name: null, device_count: 0, cuda_visible_devices: '', nvidia_visible_devices: 'void' };

function run(master: Record<string, unknown>, worker: Record<string, unknown>, change: Partial<TrainingRun> = {}): TrainingRun {
  const replica = (type: 'Master' | 'Worker', fields: Record<string, unknown>) => {
    const log = `UserWarning: something PyTorch says\n${line(fields)}\n`;
    const pod = `gpu-train-${type.toLowerCase()}-0`;
    return { type, pod, labels: { [POD_GROUP_LABEL]: 'gpu-train' }, log, report: parseReplicaReport(log)! };
  };
  return {
    name: 'gpu-train',
    createdAtMs: 1,
    finished: 'Succeeded',
    podGroup: {
      apiVersion: 'scheduling.x-k8s.io/v1alpha1',
      kind: 'PodGroup',
      metadata: { name: 'gpu-train', ownerReferences: [{ apiVersion: 'kubeflow.org/v1', kind: 'PyTorchJob', name: 'gpu-train', uid: 'u' }] },
      spec: { minMember: 2 },
    },
    podGroupPhases: ['Pending', 'Running', 'Finished'],
    replicas: [replica('Master', master), replica('Worker', worker)],
    ...change,
  };
}

describe('bench:gpu check (d): the PyTorchJob verdict', () => {
  it('finds the JSON line among other output, and none where there is none', () => {
    const report = parseReplicaReport(`rank 0 of 2 joined\n{"not": "ours"}\n${line(MASTER)}\nTraceback? no\n`);
    assert.equal(report?.rank, 0);
    assert.equal(report?.cudaVisibleDevices, 'GPU-aaaa');
    assert.equal(report?.loss, 0.42);
    assert.equal(report?.standIn, undefined);
    assert.equal(parseReplicaReport('Traceback (most recent call last):\n  RuntimeError: no CUDA\n'), undefined);
  });

  it('passes a 1-GPU run: the master on its GPU, the worker on the CPU, one loss', () => {
    assert.deepEqual(judgeTraining(run(MASTER, CPU_WORKER), UUIDS, 0), { problems: [] });
  });

  it('fails a run whose training was not shared: losses apart, weights apart, or no fall', () => {
    assert.match(judgeTraining(run(MASTER, { ...CPU_WORKER, loss: 0.43 }), UUIDS, 0).problems.join(), /final losses differ/);
    assert.match(judgeTraining(run(MASTER, { ...CPU_WORKER, weight_drift: 0.01 }), UUIDS, 0).problems.join(), /rank 1's weights are 0.01 from rank 0's/);
    const flat = { first_loss: 0.42 };
    assert.match(judgeTraining(run({ ...MASTER, ...flat }, { ...CPU_WORKER, ...flat }), UUIDS, 0).problems.join(), /the loss did not fall/);
    assert.match(judgeTraining(run(MASTER, { ...CPU_WORKER, loss: undefined }), UUIDS, 0).problems.join(), /final losses differ/);
  });

  it('fails a run where a replica saw other GPUs than it was given', () => {
    const sawAll = judgeTraining(run(MASTER, { ...CPU_WORKER, device: 'cuda', device_count: 2, cuda_visible_devices: null }), UUIDS, 0);
    assert.match(sawAll.problems.join(), /rank 1 on cuda: torch.cuda.device_count\(\)=2.*want 0 devices/);
    const unknown = judgeTraining(run({ ...MASTER, cuda_visible_devices: 'GPU-zzzz', nvidia_visible_devices: 'GPU-zzzz' }, CPU_WORKER), UUIDS, 0);
    assert.match(unknown.problems.join(), /rank 0 on cuda.*want 1 device/);
    const onCpu = judgeTraining(run({ ...MASTER, device: 'cpu', device_count: 0 }, CPU_WORKER), UUIDS, 0);
    assert.match(onCpu.problems.join(), /rank 0 on cpu/);
  });

  it('on a node of 2 GPUs, wants the worker on a GPU of its own', () => {
    const own = { ...MASTER, rank: 1, cuda_visible_devices: 'GPU-bbbb', nvidia_visible_devices: 'GPU-bbbb' };
    assert.deepEqual(judgeTraining(run(MASTER, own), UUIDS, 1), { problems: [] });
    assert.match(judgeTraining(run(MASTER, { ...MASTER, rank: 1 }), UUIDS, 1).problems.join(), /both ranks were given GPU-aaaa/);
    assert.match(judgeTraining(run(MASTER, CPU_WORKER), UUIDS, 1).problems.join(), /rank 1 on cpu.*want 1 device/);
  });

  it('fails a job that did not succeed, or ran without its gang', () => {
    assert.match(judgeTraining(run(MASTER, CPU_WORKER, { finished: 'Failed' }), UUIDS, 0).problems.join(), /the job ended Failed/);
    assert.match(judgeTraining(run(MASTER, CPU_WORKER, { finished: undefined }), UUIDS, 0).problems.join(), /the job ended not in time/);
    assert.match(judgeTraining(run(MASTER, CPU_WORKER, { podGroup: undefined }), UUIDS, 0).problems.join(), /no PodGroup gpu-train was seen/);
    const unlabelled = run(MASTER, CPU_WORKER);
    unlabelled.replicas[1]!.labels = {};
    assert.match(judgeTraining(unlabelled, UUIDS, 0).problems.join(), /pod gpu-train-worker-0 has scheduling.x-k8s.io\/pod-group=\(none\)/);
    const small = run(MASTER, CPU_WORKER);
    small.podGroup!['spec'] = { minMember: 1 };
    assert.match(judgeTraining(small, UUIDS, 0).problems.join(), /PodGroup minMember 1, want 2/);
  });

  it("skips only the training for the dry run's stand-in, and still fails what it can judge", () => {
    const standIn = { stand_in: 'no PyTorch here', first_loss: undefined, loss: undefined, weight_drift: undefined };
    assert.deepEqual(judgeTraining(run({ ...MASTER, ...standIn }, { ...CPU_WORKER, ...standIn }), UUIDS, 0), {
      problems: [],
      skipped: 'no PyTorch here',
    });
    const wrong = judgeTraining(run({ ...MASTER, ...standIn }, { ...CPU_WORKER, ...standIn, device_count: 1, device: 'cuda' }), UUIDS, 0);
    assert.match(wrong.problems.join(), /want 0 devices/);
  });
});
