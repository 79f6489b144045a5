// A small Deployment-like schema and object builders for the apply tests. It carries the
// annotations that matter to field management: a map-list keyed by name (containers), one
// keyed by two fields with a defaulted key (ports), a map (labels), a set (finalizers), an
// atomic list (args) and an atomic struct (selector).
import type { KubeObject, ManagedFieldsEntry } from '../../../src/api/meta.js';
import type { JsonSchema } from '../../../src/api/schema-nav.js';

const str = { type: 'string' };
const stringMap = { type: 'object', additionalProperties: str };

const container: JsonSchema = {
  type: 'object',
  properties: {
    name: str,
    image: str,
    args: { type: 'array', items: str, 'x-kubernetes-list-type': 'atomic' },
    ports: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
      items: {
        type: 'object',
        properties: { containerPort: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' }, name: str },
      },
    },
    resources: { type: 'object', properties: { limits: stringMap, requests: stringMap } },
  },
};

export const deploymentSchema: JsonSchema = {
  type: 'object',
  properties: {
    apiVersion: str,
    kind: str,
    metadata: {
      type: 'object',
      properties: {
        name: str,
        namespace: str,
        uid: str,
        resourceVersion: str,
        generation: { type: 'integer' },
        creationTimestamp: str,
        labels: stringMap,
        annotations: stringMap,
        finalizers: { type: 'array', items: str, 'x-kubernetes-list-type': 'set' },
        managedFields: { type: 'array', items: { type: 'object' }, 'x-kubernetes-list-type': 'atomic' },
      },
    },
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        paused: { type: 'boolean' },
        selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { matchLabels: stringMap } },
        template: {
          type: 'object',
          properties: {
            metadata: { type: 'object', properties: { labels: stringMap } },
            spec: {
              type: 'object',
              properties: {
                containers: { type: 'array', items: container, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] },
              },
            },
          },
        },
      },
    },
    status: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        conditions: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['type'],
          items: { type: 'object', properties: { type: str, status: str } },
        },
      },
    },
  },
};

export interface ContainerSpec {
  name: string;
  image: string;
  args?: string[];
  ports?: Record<string, unknown>[];
}

/** A Deployment configuration as a user would apply it (no labels when `labels` is empty). */
export function deployment(spec: Record<string, unknown>, labels: Record<string, string> = { app: 'web' }): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', ...(Object.keys(labels).length > 0 ? { labels } : {}) },
    spec,
  };
}

export function podTemplate(containers: ContainerSpec[]): Record<string, unknown> {
  return { metadata: { labels: { app: 'web' } }, spec: { containers } };
}

/** The f:ports entry owned by applying `ports: [{ containerPort: 80 }]` (the defaulted protocol is part of the key). */
export const PORT_80_FIELDS = { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } };

/** The fieldsV1 of `deployment({ replicas, template: podTemplate(...) })` with its default labels, given the f:containers it owns. */
export function deploymentFields(containers: Record<string, unknown>): Record<string, unknown> {
  return {
    'f:metadata': { 'f:labels': { 'f:app': {} } },
    'f:spec': {
      'f:replicas': {},
      'f:template': { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:containers': containers } },
    },
  };
}

/** A managedFields entry on an apps/v1 object, as the API server writes it. */
export function managedEntry(manager: string, operation: 'Apply' | 'Update', time: string, fieldsV1: Record<string, unknown>): ManagedFieldsEntry {
  return { manager, operation, apiVersion: 'apps/v1', time, fieldsType: 'FieldsV1', fieldsV1 };
}

/** What the store adds to an object: identity and bookkeeping that no manager owns. */
export function stored(object: KubeObject, resourceVersion = '1'): KubeObject {
  return {
    ...object,
    metadata: { ...object.metadata, uid: 'u-1', resourceVersion, generation: 1, creationTimestamp: '2024-01-01T00:00:00Z' },
  };
}

export const T0 = '2024-01-01T00:00:00Z';
export const T1 = '2024-01-01T00:01:00Z';
export const T2 = '2024-01-01T00:02:00Z';
