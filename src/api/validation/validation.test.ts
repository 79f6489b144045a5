import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateObject } from './index.js';
import { findByKind } from '../registry.js';
import type { KubeObject } from '../meta.js';
import type { ResourceDefinition } from '../resource.js';

function def(group: string, kind: string): ResourceDefinition {
  const found = findByKind(group, 'v1', kind);
  assert.ok(found, kind);
  return found;
}

/** Validates after defaulting, as the server does; returns "field: message" lines. */
function check(kind: string, object: KubeObject, old?: KubeObject, group = ''): string[] {
  const definition = def(group, kind);
  definition.applyDefaults(object);
  if (old) definition.applyDefaults(old);
  return validateObject(definition, object, old).map((e) => `${e.field}: ${e.message}`);
}

function pod(spec: Record<string, unknown>, name = 'web'): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec };
}

function deployment(spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec };
}

test('metadata: name rules use the exact Kubernetes messages', () => {
  assert.deepEqual(check('Pod', pod({ containers: [{ name: 'a', image: 'x' }] }, '')), ['metadata.name: Required value: name or generateName is required']);
  assert.deepEqual(check('Pod', pod({ containers: [{ name: 'a', image: 'x' }] }, 'Web_1')), [
    "metadata.name: Invalid value: \"Web_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  ]);
  const ns: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a.b' } };
  assert.deepEqual(check('Namespace', ns), ['metadata.name: Invalid value: "a.b": must not contain dots']);
  const generated = pod({ containers: [{ name: 'a', image: 'x' }] }, '');
  generated.metadata.generateName = 'web-';
  assert.deepEqual(check('Pod', generated), []);
});

test('metadata: labels and annotations', () => {
  const object = pod({ containers: [{ name: 'a', image: 'x' }] });
  object.metadata.labels = { 'bad key!': 'ok', good: 'bad value!' };
  object.metadata.annotations = { big: 'x'.repeat(256 * 1024) };
  const errors = check('Pod', object);
  assert.equal(errors.length, 3);
  assert.match(errors[0] ?? '', /^metadata\.labels: Invalid value: "bad key!": name part must consist of alphanumeric/);
  assert.match(errors[1] ?? '', /^metadata\.labels: Invalid value: "bad value!": a valid label must be an empty string/);
  assert.equal(errors[2], 'metadata.annotations: Too long: may not be more than 262144 bytes');
});

test('pod: containers need unique DNS-label names and an image; mounts need volumes', () => {
  const errors = check(
    'Pod',
    pod({
      containers: [
        { name: 'web', image: 'nginx', volumeMounts: [{ name: 'missing', mountPath: '/x' }], ports: [{ containerPort: 0 }] },
        { name: 'web', image: '' },
        { name: 'Bad', image: 'x' },
      ],
    }),
  );
  assert.deepEqual(errors, [
    'spec.containers[0].ports[0].containerPort: Required value',
    'spec.containers[0].volumeMounts[0].name: Not found: "missing"',
    'spec.containers[1].name: Duplicate value: "web"',
    'spec.containers[1].image: Required value',
    "spec.containers[2].name: Invalid value: \"Bad\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
  ]);
});

test('pod: requests may not exceed limits; probes need one handler', () => {
  const errors = check(
    'Pod',
    pod({
      containers: [
        {
          name: 'web',
          image: 'nginx',
          resources: { requests: { cpu: '2' }, limits: { cpu: '1' } },
          livenessProbe: { periodSeconds: 5 },
        },
      ],
    }),
  );
  assert.deepEqual(errors, [
    'spec.containers[0].livenessProbe: Required value: must specify a handler type',
    'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
  ]);
});

test('pod update: only images (and a few fields) may change', () => {
  const old = pod({ containers: [{ name: 'web', image: 'nginx:1' }] });
  assert.deepEqual(check('Pod', pod({ containers: [{ name: 'web', image: 'nginx:2' }] }), old), []);
  const errors = check('Pod', pod({ containers: [{ name: 'web', image: 'nginx:1' }], restartPolicy: 'Never' }), old);
  assert.equal(errors.length, 1);
  assert.match(errors[0] ?? '', /^spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/);
});

test('deployment: selector must match the template and is immutable', () => {
  const spec = () => ({
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'other' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
  });
  assert.deepEqual(check('Deployment', deployment(spec()), undefined, 'apps'), [
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`',
  ]);
  const good = deployment({ ...spec(), template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } });
  const changed = deployment({
    ...spec(),
    selector: { matchLabels: { app: 'web', v: '2' } },
    template: { metadata: { labels: { app: 'web', v: '2' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
  });
  assert.match(check('Deployment', changed, good, 'apps')[0] ?? '', /^spec\.selector: Invalid value: .*: field is immutable$/);
});

test('deployment: template restartPolicy must be Always; rolling update may not be 0/0', () => {
  const errors = check(
    'Deployment',
    deployment({
      selector: { matchLabels: { app: 'web' } },
      strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } },
      template: { metadata: { labels: { app: 'web' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'web', image: 'nginx' }] } },
    }),
    undefined,
    'apps',
  );
  assert.deepEqual(errors, [
    'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0',
  ]);
});

test('deployment and daemon set: rollingUpdate only with the RollingUpdate strategy', () => {
  const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } };
  const recreate = deployment({ selector: { matchLabels: { app: 'web' } }, strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } }, template });
  assert.deepEqual(check('Deployment', recreate, undefined, 'apps'), [
    "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
  ]);
  const onDelete: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default' },
    spec: { selector: { matchLabels: { app: 'web' } }, updateStrategy: { type: 'OnDelete', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } }, template },
  };
  assert.deepEqual(check('DaemonSet', onDelete, undefined, 'apps'), [
    "spec.updateStrategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'OnDelete'",
  ]);
  const rolling = {
    ...onDelete,
    spec: { ...(onDelete['spec'] as object), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } },
  };
  assert.deepEqual(check('DaemonSet', rolling, undefined, 'apps'), [
    'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0',
  ]);
});

test('job: restartPolicy must be OnFailure or Never; template is immutable', () => {
  const job = (image: string, restartPolicy?: string): KubeObject => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', namespace: 'default', uid: 'u-1' },
    spec: { template: { spec: { containers: [{ name: 'pi', image }], ...(restartPolicy ? { restartPolicy } : {}) } } },
  });
  assert.deepEqual(check('Job', job('perl'), undefined, 'batch'), [
    'spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
  ]);
  assert.deepEqual(check('Job', job('perl', 'Never'), undefined, 'batch'), []);
  const errors = check('Job', job('perl:2', 'Never'), job('perl', 'Never'), 'batch');
  assert.equal(errors.length, 1);
  assert.match(errors[0] ?? '', /^spec\.template: Invalid value: .*: field is immutable$/);
});

test('service: ports, names and immutable clusterIP', () => {
  const service = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec });
  assert.deepEqual(check('Service', service({ selector: { app: 'web' } })), ['spec.ports: Required value']);
  assert.deepEqual(check('Service', service({ ports: [{ port: 80 }, { port: 70000 }] })), [
    'spec.ports[0].name: Required value',
    'spec.ports[1].name: Required value',
    'spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
    // targetPort defaults to port, so it is out of range too (as in Kubernetes).
    'spec.ports[1].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
  ]);
  const before = service({ ports: [{ port: 80 }], clusterIP: '10.96.0.10' });
  assert.deepEqual(check('Service', service({ ports: [{ port: 80 }], clusterIP: '10.96.0.11' }), before), [
    'spec.clusterIPs[0]: Invalid value: []string{"10.96.0.11"}: may not change once set',
  ]);
  const bad: KubeObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: '1web' }, spec: { ports: [{ port: 80 }] } };
  assert.match(check('Service', bad)[0] ?? '', /^metadata\.name: Invalid value: "1web": a DNS-1035 label must consist of/);
});

test('configmap and secret data', () => {
  const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { 'a b': 'x', ok: 'y' } };
  assert.deepEqual(check('ConfigMap', cm), [
    "data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
  ]);
  const secret: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'kubernetes.io/tls', data: { 'tls.crt': 'not base64!' } };
  assert.deepEqual(check('Secret', secret), [
    'data[tls.crt]: Invalid value: "<secret contents redacted>": must be valid base64',
    'data[tls.key]: Required value',
  ]);
  const frozen: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, immutable: true, data: { a: '1' } };
  assert.deepEqual(check('ConfigMap', { ...frozen, data: { a: '2' } }, frozen), ['data: Forbidden: field is immutable when `immutable` is set']);
});
