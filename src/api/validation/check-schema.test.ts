import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSchema } from './check-schema.js';
import { findByKind } from '../registry.js';
import type { KubeObject } from '../meta.js';

const deploymentDef = findByKind('apps', 'v1', 'Deployment');
const podDef = findByKind('', 'v1', 'Pod');
assert.ok(deploymentDef && podDef);

function deployment(spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec };
}

function samplePod(): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-1',
      namespace: 'default',
      labels: { app: 'web' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'u1', controller: true }],
    },
    spec: {
      containers: [
        {
          name: 'web',
          image: 'nginx:1.27',
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          env: [
            { name: 'A', value: '1' },
            { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          ],
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: 1, memory: '256Mi' } },
          volumeMounts: [{ name: 'data', mountPath: '/data' }],
          readinessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 10 },
        },
      ],
      volumes: [{ name: 'data', emptyDir: {} }],
      restartPolicy: 'Always',
      tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

test('a valid pod passes', () => {
  assert.deepEqual(checkSchema(podDef.schema, samplePod(), { unknownFields: 'report' }), { errors: [], unknownFields: [] });
});

test('unknown fields are reported with Kubernetes-style paths', () => {
  const object = deployment({
    replica: 2,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx', imagee: 'x' }] } },
  });
  const result = checkSchema(deploymentDef.schema, object, { unknownFields: 'report' });
  assert.deepEqual(result.unknownFields, ['spec.replica', 'spec.template.spec.containers[0].imagee']);
  assert.equal((object['spec'] as Record<string, unknown>)['replica'], 2, 'report mode leaves the object alone');
});

test('prune mode deletes unknown fields in place', () => {
  const object = deployment({ replica: 2, selector: { matchLabels: { app: 'web' } }, template: {} });
  const result = checkSchema(deploymentDef.schema, object, { unknownFields: 'prune' });
  assert.deepEqual(result.unknownFields, ['spec.replica']);
  assert.equal('replica' in (object['spec'] as Record<string, unknown>), false);
});

test('maps accept any key; labels with non-string values are type errors', () => {
  const pod = samplePod();
  pod.metadata.labels = { app: 'web', 'example.com/tier': 'x' };
  assert.deepEqual(checkSchema(podDef.schema, pod, { unknownFields: 'report' }).unknownFields, []);
  (pod.metadata as Record<string, unknown>)['labels'] = { app: 3 };
  const { errors } = checkSchema(podDef.schema, pod, { unknownFields: 'report' });
  assert.deepEqual(errors, [{ field: 'metadata.labels[app]', type: 'FieldValueTypeInvalid', message: 'Invalid value: "integer": must be of type string' }]);
});

test('minimum, enum, type and required errors use Kubernetes messages', () => {
  const object = deployment({
    replicas: -1,
    selector: { matchLabels: { app: 'web' } },
    template: { spec: { containers: [{ name: 'web', image: 'nginx', imagePullPolicy: 'Foo' }], restartPolicy: 5 } },
  });
  const { errors } = checkSchema(deploymentDef.schema, object, { unknownFields: 'report' });
  assert.deepEqual(
    errors.map((e) => `${e.field}: ${e.message}`),
    [
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.template.spec.containers[0].imagePullPolicy: Unsupported value: "Foo": supported values: "Always", "IfNotPresent", "Never"',
      'spec.template.spec.restartPolicy: Invalid value: "integer": must be of type string',
    ],
  );
  const missing = checkSchema(deploymentDef.schema, deployment({ template: {} }), { unknownFields: 'report' });
  assert.deepEqual(missing.errors, [{ field: 'spec.selector', type: 'FieldValueRequired', message: 'Required value' }]);
});

test('quantities and int-or-string accept both forms', () => {
  const pod = samplePod();
  const container = ((pod['spec'] as Record<string, unknown>)['containers'] as Record<string, unknown>[])[0] as Record<string, unknown>;
  container['resources'] = { limits: { cpu: 0.5, memory: '1Gi' }, requests: { cpu: '250m', memory: '1e9' } };
  assert.deepEqual(checkSchema(podDef.schema, pod, { unknownFields: 'report' }).errors, []);
  container['resources'] = { limits: { cpu: 'lots' } };
  container['readinessProbe'] = { tcpSocket: { port: 8080 } };
  const { errors } = checkSchema(podDef.schema, pod, { unknownFields: 'report' });
  assert.equal(errors.length, 1);
  assert.equal(errors[0]?.field, 'spec.containers[0].resources.limits[cpu]');
  container['resources'] = {};
  container['readinessProbe'] = { tcpSocket: { port: true } };
  assert.equal(checkSchema(podDef.schema, pod, { unknownFields: 'report' }).errors[0]?.field, 'spec.containers[0].readinessProbe.tcpSocket.port');
});

test('null is accepted wherever a field may be absent', () => {
  const pod = samplePod();
  pod.metadata.creationTimestamp = null as unknown as string;
  pod['status'] = null;
  assert.deepEqual(checkSchema(podDef.schema, pod, { unknownFields: 'report' }).errors, []);
});
