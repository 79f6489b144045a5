import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../meta.js';
import { findByKind } from '../registry.js';
import { defaultPullPolicy } from './pod-defaults.js';
import { preserveServiceAllocations } from './core-defaults.js';

function defaulted(group: string, kind: string, object: KubeObject): Record<string, any> {
  const def = findByKind(group, 'v1', kind);
  assert.ok(def);
  def.applyDefaults(object);
  return object as Record<string, any>;
}

test('image pull policy follows the tag', () => {
  assert.equal(defaultPullPolicy('nginx'), 'Always');
  assert.equal(defaultPullPolicy('nginx:latest'), 'Always');
  assert.equal(defaultPullPolicy('nginx:1.27'), 'IfNotPresent');
  assert.equal(defaultPullPolicy('localhost:5000/app'), 'Always');
  assert.equal(defaultPullPolicy('localhost:5000/app:v1'), 'IfNotPresent');
  assert.equal(defaultPullPolicy('nginx@sha256:abc'), 'IfNotPresent');
});

test('pod defaults', () => {
  const pod = defaulted('', 'Pod', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: {
      containers: [
        {
          name: 'web',
          image: 'nginx',
          ports: [{ containerPort: 80 }],
          resources: { limits: { cpu: '1', memory: '1Gi' } },
          livenessProbe: { httpGet: { port: 80 } },
          env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
        },
      ],
      volumes: [{ name: 'v' }, { name: 's', secret: { secretName: 's' } }],
    },
  });
  const spec = pod['spec'];
  assert.equal(spec.restartPolicy, 'Always');
  assert.equal(spec.dnsPolicy, 'ClusterFirst');
  assert.equal(spec.terminationGracePeriodSeconds, 30);
  assert.equal(spec.schedulerName, 'default-scheduler');
  assert.deepEqual(spec.securityContext, {});
  assert.equal(spec.serviceAccountName, 'default');
  assert.equal(spec.enableServiceLinks, true);
  const container = spec.containers[0];
  assert.equal(container.imagePullPolicy, 'Always');
  assert.equal(container.terminationMessagePath, '/dev/termination-log');
  assert.equal(container.terminationMessagePolicy, 'File');
  assert.equal(container.ports[0].protocol, 'TCP');
  assert.deepEqual(container.resources.requests, { cpu: '1', memory: '1Gi' });
  assert.deepEqual(container.livenessProbe, {
    httpGet: { port: 80, path: '/', scheme: 'HTTP' },
    timeoutSeconds: 1,
    periodSeconds: 10,
    successThreshold: 1,
    failureThreshold: 3,
  });
  assert.equal(container.env[0].valueFrom.fieldRef.apiVersion, 'v1');
  assert.deepEqual(spec.volumes[0].emptyDir, {});
  assert.equal(spec.volumes[1].secret.defaultMode, 420);
  assert.equal(pod['status'].phase, 'Pending');
  assert.equal(pod['status'].qosClass, 'Guaranteed');
  assert.equal(spec.tolerations.length, 2);
});

test('deployment defaults include its pod template', () => {
  const deployment = defaulted('apps', 'Deployment', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd' },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } } },
  });
  const spec = deployment['spec'];
  assert.equal(spec.replicas, 1);
  assert.deepEqual(spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
  assert.equal(spec.revisionHistoryLimit, 10);
  assert.equal(spec.progressDeadlineSeconds, 600);
  assert.equal(spec.template.spec.restartPolicy, 'Always');
  assert.equal(spec.template.spec.containers[0].imagePullPolicy, 'IfNotPresent');
  assert.equal(spec.template.spec.enableServiceLinks, undefined, 'pod-only defaults stay off templates');
});

test('daemonset and replicaset defaults', () => {
  const ds = defaulted('apps', 'DaemonSet', { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'd' }, spec: {} });
  assert.deepEqual(ds['spec'].updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
  assert.equal(ds['spec'].revisionHistoryLimit, 10);
  const rs = defaulted('apps', 'ReplicaSet', { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'r' }, spec: {} });
  assert.equal(rs['spec'].replicas, 1);
});

test('job defaults and generated selector', () => {
  const job = defaulted('batch', 'Job', {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', uid: 'uid-1' },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl' }] } } },
  });
  const spec = job['spec'];
  assert.equal(spec.completions, 1);
  assert.equal(spec.parallelism, 1);
  assert.equal(spec.backoffLimit, 6);
  assert.equal(spec.completionMode, 'NonIndexed');
  assert.equal(spec.suspend, false);
  assert.deepEqual(spec.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': 'uid-1' } });
  assert.equal(spec.template.metadata.labels['job-name'], 'pi');
  assert.equal(job['metadata'].labels['batch.kubernetes.io/job-name'], 'pi');
});

test('service defaults and preserved allocations', () => {
  const service = defaulted('', 'Service', {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 's' },
    spec: { type: 'NodePort', ports: [{ port: 80 }, { port: 443, targetPort: 'https' }] },
  });
  const spec = service['spec'];
  assert.equal(spec.sessionAffinity, 'None');
  assert.equal(spec.externalTrafficPolicy, 'Cluster');
  assert.deepEqual(spec.ports, [
    { port: 80, protocol: 'TCP', targetPort: 80 },
    { port: 443, targetPort: 'https', protocol: 'TCP' },
  ]);
  const old = {
    ...service,
    spec: { ...spec, clusterIP: '10.96.0.9', clusterIPs: ['10.96.0.9'], ports: [{ port: 80, protocol: 'TCP', nodePort: 30080 }] },
  } as unknown as KubeObject;
  const update: KubeObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } };
  preserveServiceAllocations(update, old);
  assert.equal((update['spec'] as any).clusterIP, '10.96.0.9');
  assert.equal((update['spec'] as any).ports[0].nodePort, 30080);
});

test('secret, namespace and node defaults', () => {
  const secret = defaulted('', 'Secret', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { user: 'admin' } });
  assert.equal(secret['type'], 'Opaque');
  assert.deepEqual(secret['data'], { user: Buffer.from('admin').toString('base64') });
  assert.equal(secret['stringData'], undefined);
  const ns = defaulted('', 'Namespace', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
  assert.deepEqual(ns['spec'], { finalizers: ['kubernetes'] });
  assert.equal(ns['status'].phase, 'Active');
  assert.equal(ns['metadata'].labels['kubernetes.io/metadata.name'], 'team');
  const node = defaulted('', 'Node', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, status: { capacity: { cpu: '4' } } });
  assert.deepEqual(node['status'].allocatable, { cpu: '4' });
});
