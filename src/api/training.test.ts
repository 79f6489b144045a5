// The kubeflow.org/v1 training kinds and the PodGroup at the API: defaults as Kubeflow's webhook
// sets them, validation as it rejects, and their tables.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from './meta.js';
import { applyPodGroupDefaults, applyTrainingJobDefaults } from './defaults/training-defaults.js';
import { podGroupPrinter, trainingJobPrinter } from './printers/training.js';
import { validateTrainingJob } from './validation/training-validation.js';

function template(container = 'pytorch') {
  return { spec: { containers: [{ name: container, image: 'trainer:1' }] } };
}

function job(kind: string, specs: Record<string, unknown>, extra: Record<string, unknown> = {}): KubeObject {
  const field = kind === 'PyTorchJob' ? 'pytorchReplicaSpecs' : 'tfReplicaSpecs';
  return { apiVersion: 'kubeflow.org/v1', kind, metadata: { name: 'j', namespace: 'default' }, spec: { [field]: specs, ...extra } };
}

test('a PyTorchJob is defaulted as Kubeflow does: canonical types, 1 replica, OnFailure, the port on the master only', () => {
  const pj = job('PyTorchJob', { master: { template: template() }, worker: { replicas: 2, template: template() } });
  applyTrainingJobDefaults(pj);
  const spec = pj['spec'] as { pytorchReplicaSpecs: Record<string, any>; runPolicy: any; nprocPerNode: string };
  assert.deepEqual(Object.keys(spec.pytorchReplicaSpecs).sort(), ['Master', 'Worker']);
  assert.equal(spec.pytorchReplicaSpecs['Master'].replicas, 1);
  assert.equal(spec.pytorchReplicaSpecs['Worker'].restartPolicy, 'OnFailure');
  assert.deepEqual(spec.pytorchReplicaSpecs['Master'].template.spec.containers[0].ports, [{ name: 'pytorchjob-port', containerPort: 23456, protocol: 'TCP' }]);
  assert.equal(spec.pytorchReplicaSpecs['Worker'].template.spec.containers[0].ports, undefined);
  assert.deepEqual(spec.runPolicy, { cleanPodPolicy: 'None', suspend: false });
  assert.equal(spec.nprocPerNode, 'auto');
});

test('a TFJob gets Never, port 2222 on every replica type and the default success policy', () => {
  const tj = job('TFJob', { PS: { template: template('tensorflow') }, Worker: { replicas: 2, template: template('tensorflow') } });
  applyTrainingJobDefaults(tj);
  const spec = tj['spec'] as { tfReplicaSpecs: Record<string, any>; successPolicy: string };
  for (const type of ['PS', 'Worker']) {
    assert.equal(spec.tfReplicaSpecs[type].restartPolicy, 'Never');
    assert.equal(spec.tfReplicaSpecs[type].template.spec.containers[0].ports[0].containerPort, 2222);
  }
  assert.equal(spec.successPolicy, '');
});

test('validation names the field at fault', () => {
  const fields = (object: KubeObject) =>
    validateTrainingJob(object)
      .map((e) => e.field)
      .sort();
  assert.deepEqual(fields(job('PyTorchJob', {})), ['spec.pytorchReplicaSpecs']);
  assert.deepEqual(fields(job('PyTorchJob', { Master: { replicas: 2, template: template() }, Boss: { template: template() } })), [
    'spec.pytorchReplicaSpecs[Boss]',
    'spec.pytorchReplicaSpecs[Master].replicas',
  ]);
  assert.deepEqual(fields(job('PyTorchJob', { Worker: { template: template('trainer') } })), ['spec.pytorchReplicaSpecs[Worker].template.spec.containers']);
  assert.deepEqual(fields(job('TFJob', { Chief: { template: template('tensorflow') }, Master: { template: template('tensorflow') } })), [
    'spec.tfReplicaSpecs[Master]',
  ]);
  assert.deepEqual(fields(job('PyTorchJob', { Worker: { template: template() } }, { runPolicy: { schedulingPolicy: { minResources: { gpu: 1 } } } })), [
    'spec.runPolicy.schedulingPolicy.minResources[gpu]',
  ]);
  const queued = (queue: string) => job('PyTorchJob', { Worker: { template: template() } }, { runPolicy: { schedulingPolicy: { queue } } });
  assert.deepEqual(
    validateTrainingJob(queued('b'), queued('a')).map((e) => e.field),
    ['spec.runPolicy.schedulingPolicy.queue'],
  );
});

test('tables: a job shows its latest condition, a group its phase, minMember and running members', () => {
  const now = new Date();
  const pj = {
    ...job('PyTorchJob', {}),
    status: {
      conditions: [
        { type: 'Created', status: 'True' },
        { type: 'Running', status: 'True' },
      ],
    },
  };
  assert.deepEqual(trainingJobPrinter.row(pj, now).slice(0, 2), ['j', 'Running']);
  const group: KubeObject = {
    apiVersion: 'scheduling.x-k8s.io/v1alpha1',
    kind: 'PodGroup',
    metadata: { name: 'g' },
    spec: {},
    status: { phase: 'Running', running: 3 },
  };
  applyPodGroupDefaults(group);
  assert.deepEqual(podGroupPrinter.row(group, now).slice(0, 4), ['g', 'Running', 1, 3]);
});
