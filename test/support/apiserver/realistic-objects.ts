// Objects as the API server stores them (defaults filled in, server metadata set) with the
// real schemas, for the managedFields benchmark and the fast-path equivalence tests. The
// field-set tests use the small schema of apply-schema.ts; these catch what only the real
// schemas exercise (anyOf wrappers, patternProperties maps, defaulted list keys).
import type { KubeObject } from '../../../src/api/meta.js';
import { findResource } from '../../../src/api/registry.js';
import type { JsonSchema } from '../../../src/api/schema-nav.js';

export interface RealisticObject {
  name: string;
  object: KubeObject;
  schema: JsonSchema;
  apiVersion: string;
}

function stored(group: string, version: string, plural: string, body: KubeObject): RealisticObject {
  const def = findResource(group, version, plural);
  if (!def) throw new Error(`no resource ${group}/${version}/${plural}`);
  def.applyDefaults(body);
  Object.assign(body.metadata, {
    uid: '6f1c1a52-0d7e-4a5e-9f57-3b0e8d1c2a11',
    resourceVersion: '41',
    creationTimestamp: '2024-01-01T00:00:00Z',
    generation: 1,
  });
  return {
    name: `${def.kind} ${body.metadata.name ?? ''}`,
    object: body,
    schema: def.schema as JsonSchema,
    apiVersion: group ? `${group}/${version}` : version,
  };
}

function container(name: string, image: string, port: number): Record<string, unknown> {
  return {
    name,
    image,
    command: ['/bin/server', '--port', String(port)],
    ports: [{ containerPort: port, name: 'http' }],
    env: [
      { name: 'MODE', value: 'production' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    ],
    resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '100m', memory: '64Mi' } },
    readinessProbe: { httpGet: { path: '/healthz', port }, periodSeconds: 5 },
  };
}

/** The typical Pod of the create benchmark: one container, ~60 leaf fields once defaulted. */
export function realisticPod(name = 'web-0'): RealisticObject {
  return stored('', 'v1', 'pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'web', tier: 'frontend' } },
    spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [container('web', 'nginx:1.25', 8080)] },
  });
}

export function realisticDeployment(): RealisticObject {
  return stored('apps', 'v1', 'deployments', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' }, annotations: { 'example.com/owner': 'team-a' } },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web', tier: 'frontend' } },
        spec: {
          containers: [container('web', 'nginx:1.25', 8080), container('sidecar', 'envoy:1.30', 9901)],
          volumes: [{ name: 'cache', emptyDir: {} }],
          tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }],
        },
      },
    },
  });
}

export function realisticService(): RealisticObject {
  return stored('', 'v1', 'services', {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' }, finalizers: ['example.com/protect'] },
    spec: {
      selector: { app: 'web' },
      ports: [
        { name: 'http', port: 80, targetPort: 8080 },
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
        { name: 'https', port: 443, targetPort: 'https' },
      ],
    },
  });
}

export function realisticConfigMap(): RealisticObject {
  return stored('', 'v1', 'configmaps', {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'settings', namespace: 'default', labels: { app: 'web' }, annotations: {} },
    data: { 'app.properties': 'a=1\nb=2\n', LOG_LEVEL: 'info', 'zz-last': '', '10': 'numeric key', '2': 'another', Übersicht: 'unicode' },
  });
}

export function realisticObjects(): RealisticObject[] {
  return [realisticPod(), realisticDeployment(), realisticService(), realisticConfigMap()];
}
