// Pod templates found from each kind's schema.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findResource, resourceDefinitions } from '../../../api/registry.js';
import { podTemplatePaths, podTemplatesOf } from './pod-templates.js';

describe('pod templates', () => {
  it('are found in every workload kind and only there', () => {
    const kinds = resourceDefinitions
      .filter((def) => podTemplatePaths(def).length > 0)
      .map((def) => def.kind)
      .sort();
    assert.deepEqual(kinds, ['CronJob', 'DaemonSet', 'Deployment', 'Job', 'PyTorchJob', 'ReplicaSet', 'ReplicationController', 'StatefulSet', 'TFJob']);
  });

  it("are read from a CronJob's job template", () => {
    const def = findResource('batch', 'v1', 'cronjobs')!;
    const cronJob = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'c' },
      spec: { schedule: '@daily', jobTemplate: { spec: { template: { spec: { containers: [] } } } } },
    };
    assert.deepEqual(
      podTemplatesOf(def, cronJob).map((found) => found.field),
      ['spec.jobTemplate.spec.template'],
    );
  });

  it('are read from every replica of a training job', () => {
    const def = findResource('kubeflow.org', 'v1', 'pytorchjobs')!;
    const template = (image: string) => ({ spec: { containers: [{ name: 'pytorch', image }] } });
    const job = {
      apiVersion: 'kubeflow.org/v1',
      kind: 'PyTorchJob',
      metadata: { name: 'j' },
      spec: { pytorchReplicaSpecs: { Master: { replicas: 1, template: template('m') }, Worker: { replicas: 2, template: template('w') } } },
    };
    assert.deepEqual(
      podTemplatesOf(def, job).map((found) => found.field),
      ['spec.pytorchReplicaSpecs.Master.template', 'spec.pytorchReplicaSpecs.Worker.template'],
    );
  });
});
