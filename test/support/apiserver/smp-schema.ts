// For the patch tests (src/apiserver/patch/): a cut-down Deployment / Pod schema that
// carries the same Kubernetes extensions as the real OpenAPI schemas, so the strategic merge
// patch tests exercise what kubectl will send against what the server will know.
import assert from 'node:assert/strict';
import type { JsonSchema } from '../../../src/api/schema-nav.js';
import { PatchError } from '../../../src/apiserver/patch/errors.js';

const str: JsonSchema = { type: 'string' };
const int: JsonSchema = { type: 'integer' };
const bool: JsonSchema = { type: 'boolean' };
const stringMap: JsonSchema = { type: 'object', additionalProperties: str };

function keyedList(items: JsonSchema, mergeKey: string, mapKeys = [mergeKey], strategy = 'merge'): JsonSchema {
  return {
    type: 'array',
    items,
    'x-kubernetes-patch-merge-key': mergeKey,
    'x-kubernetes-patch-strategy': strategy,
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': mapKeys,
  };
}

const objectMeta: JsonSchema = {
  type: 'object',
  properties: {
    name: str,
    namespace: str,
    labels: stringMap,
    annotations: stringMap,
    finalizers: { type: 'array', items: str, 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'set' },
    ownerReferences: keyedList({ type: 'object', properties: { uid: str, name: str, kind: str, apiVersion: str, controller: bool } }, 'uid'),
  },
};

const container: JsonSchema = {
  type: 'object',
  properties: {
    name: str,
    image: str,
    command: { type: 'array', items: str, 'x-kubernetes-list-type': 'atomic' },
    args: { type: 'array', items: str, 'x-kubernetes-list-type': 'atomic' },
    ports: keyedList({ type: 'object', properties: { containerPort: int, protocol: str, name: str } }, 'containerPort', ['containerPort', 'protocol']),
    env: keyedList(
      {
        type: 'object',
        properties: { name: str, value: str, valueFrom: { type: 'object', properties: { fieldRef: { type: 'object', properties: { fieldPath: str } } } } },
      },
      'name',
    ),
    volumeMounts: keyedList({ type: 'object', properties: { name: str, mountPath: str, readOnly: bool } }, 'mountPath'),
    resources: { type: 'object', properties: { limits: stringMap, requests: stringMap } },
  },
};

const volume: JsonSchema = {
  type: 'object',
  properties: {
    name: str,
    emptyDir: { type: 'object', properties: { medium: str, sizeLimit: str } },
    hostPath: { type: 'object', properties: { path: str, type: str } },
    configMap: { type: 'object', properties: { name: str } },
  },
};

const toleration: JsonSchema = { type: 'object', properties: { key: str, operator: str, value: str, effect: str } };

export const podSpecSchema: JsonSchema = {
  type: 'object',
  properties: {
    containers: keyedList(container, 'name'),
    initContainers: keyedList(container, 'name'),
    volumes: keyedList(volume, 'name', ['name'], 'merge,retainKeys'),
    imagePullSecrets: keyedList({ type: 'object', properties: { name: str } }, 'name'),
    // As in Kubernetes: tolerations carry no patch strategy, so a patch replaces them whole.
    tolerations: { type: 'array', items: toleration, 'x-kubernetes-list-type': 'atomic' },
    nodeSelector: { ...stringMap, 'x-kubernetes-map-type': 'atomic' },
    restartPolicy: str,
  },
};

export const podSchema: JsonSchema = {
  type: 'object',
  properties: { apiVersion: str, kind: str, metadata: objectMeta, spec: podSpecSchema },
};

export const deploymentSchema: JsonSchema = {
  type: 'object',
  properties: {
    apiVersion: str,
    kind: str,
    metadata: objectMeta,
    spec: {
      type: 'object',
      properties: {
        replicas: int,
        selector: { type: 'object', properties: { matchLabels: stringMap }, 'x-kubernetes-map-type': 'atomic' },
        template: { type: 'object', properties: { metadata: objectMeta, spec: podSpecSchema } },
        strategy: {
          type: 'object',
          'x-kubernetes-patch-strategy': 'retainKeys',
          properties: { type: str, rollingUpdate: { type: 'object', properties: { maxSurge: {}, maxUnavailable: {} } } },
        },
      },
    },
    status: { type: 'object', properties: { replicas: int } },
  },
};

/** A Deployment as the server stores it, with two containers. */
// Typed loosely: tests reach deep into it.
export function deployment(): Record<string, any> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web', tier: 'front' }, finalizers: ['a', 'b'] },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'app',
              image: 'app:1',
              ports: [{ containerPort: 80, protocol: 'TCP' }],
              env: [
                { name: 'A', value: '1' },
                { name: 'B', value: '2' },
              ],
            },
            { name: 'sidecar', image: 'proxy:1', args: ['--port', '9000'] },
          ],
          volumes: [{ name: 'cache', emptyDir: { medium: 'Memory' } }],
          tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }],
        },
      },
    },
  };
}

/** Freezes a value deeply, so a test fails if the code under test writes into its input. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Asserts that the patch `fn` applies is refused as a 400 BadRequest, its message matching `message`. */
export function rejectsAsBadRequest(fn: () => unknown, message?: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof PatchError, String(error));
    assert.equal(error.reason, 'BadRequest', error.message);
    if (message) assert.match(error.message, message);
    return true;
  });
}
