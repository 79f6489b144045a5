import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyDefaults, prune } from './prune-default.js';

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        size: { type: 'string', default: 'medium' },
        replicas: { type: 'integer', default: 1 },
        note: { type: 'string', nullable: true },
        nested: { type: 'object', default: {}, properties: { level: { type: 'integer', default: 3 } } },
        items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, weight: { type: 'integer', default: 10 } } } },
        open: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'object', properties: { a: { type: 'string' } } } },
        },
        labels: { type: 'object', additionalProperties: { type: 'object', properties: { v: { type: 'string' } } } },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } },
      },
    },
  },
};

test('pruning drops undeclared fields and disallowed nulls, keeping what preserve-unknown-fields and embedded resources keep', () => {
  const object = {
    apiVersion: 'x/v1',
    kind: 'X',
    metadata: { name: 'a' },
    status: { gone: true },
    spec: {
      extra: 1,
      size: null,
      note: null,
      items: [{ name: 'a', colour: 'red' }],
      open: { anything: [1], known: { a: 'x', b: 'y' } },
      labels: { one: { v: 'x', w: 'y' } },
      template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {}, other: 1 },
    },
  };
  const unknown = prune(schema, object);
  assert.deepEqual(unknown.sort(), ['spec.extra', 'spec.items[0].colour', 'spec.labels[one].w', 'spec.open.known.b', 'spec.template.other', 'status'].sort());
  assert.deepEqual(object, {
    apiVersion: 'x/v1',
    kind: 'X',
    metadata: { name: 'a' },
    spec: {
      note: null,
      items: [{ name: 'a' }],
      open: { anything: [1], known: { a: 'x' } },
      labels: { one: { v: 'x' } },
      template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} },
    },
  });
});

test('defaults fill missing fields top down, into defaulted objects and list items, and never overwrite', () => {
  const object: Record<string, unknown> = { spec: { replicas: 0, items: [{ name: 'a' }, { name: 'b', weight: 1 }] } };
  applyDefaults(schema, object);
  assert.deepEqual(object, {
    spec: {
      size: 'medium',
      replicas: 0,
      nested: { level: 3 },
      items: [
        { name: 'a', weight: 10 },
        { name: 'b', weight: 1 },
      ],
    },
  });
  const nothing: Record<string, unknown> = {};
  applyDefaults(schema, nothing);
  assert.deepEqual(nothing, {});
});
