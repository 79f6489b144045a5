import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateValue } from './value-validation.js';

const schema = {
  type: 'object',
  required: ['spec'],
  properties: {
    spec: {
      type: 'object',
      required: ['image'],
      properties: {
        image: { type: 'string', pattern: '^[a-z]+$', minLength: 2, maxLength: 8 },
        replicas: { type: 'integer', minimum: 0, maximum: 5 },
        ratio: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true },
        size: { type: 'string', enum: ['small', 'large'] },
        port: { 'x-kubernetes-int-or-string': true },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 2, 'x-kubernetes-list-type': 'set' },
        ports: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
        },
        when: { type: 'string', format: 'date-time' },
        note: { type: 'string', nullable: true },
        mode: { type: 'string', oneOf: [{ pattern: '^a' }, { pattern: 'b$' }] },
        either: { type: 'object', anyOf: [{ required: ['x'] }, { required: ['y'] }], not: { required: ['z'] } },
        limits: { type: 'object', additionalProperties: { type: 'integer' } },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};

const errorsOf = (spec: Record<string, unknown>) => validateValue(schema, { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a' }, spec }, '');
const messages = (spec: Record<string, unknown>) => errorsOf(spec).map((e) => `${e.field}: ${e.message}`);

test('a valid object has no errors', () => {
  assert.deepEqual(
    messages({
      image: 'busybox',
      replicas: 2,
      ratio: 0.5,
      size: 'small',
      port: 'http',
      tags: ['a'],
      when: '2024-01-02T03:04:05Z',
      note: null,
      mode: 'ax',
      either: { x: 1 },
      limits: { cpu: 2 },
    }),
    [],
  );
});

test('required, type, enum and bounds as Kubernetes words them', () => {
  assert.deepEqual(
    validateValue(schema, { metadata: {} }, '').map((e) => `${e.field}: ${e.message}`),
    ['spec: Required value'],
  );
  assert.deepEqual(messages({ image: 'busybox', replicas: 'two' }), [
    'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
  ]);
  assert.deepEqual(messages({ image: 'busybox', size: 'medium' }), ['spec.size: Unsupported value: "medium": supported values: "small", "large"']);
  assert.deepEqual(messages({ image: 'busybox', replicas: 6 }), ['spec.replicas: Invalid value: 6: spec.replicas in body should be less than or equal to 5']);
  assert.deepEqual(messages({ image: 'busybox', replicas: -1 }), [
    'spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0',
  ]);
  assert.deepEqual(messages({ image: 'busybox', ratio: 0 }), ['spec.ratio: Invalid value: 0: spec.ratio in body should be greater than 0']);
  assert.deepEqual(messages({ image: 'busybox', ratio: 1 }), ['spec.ratio: Invalid value: 1: spec.ratio in body should be less than 1']);
  assert.deepEqual(messages({}), ['spec.image: Required value']);
});

test('strings: pattern, lengths, format; lists: items, sizes, set and map uniqueness', () => {
  assert.deepEqual(messages({ image: 'Busy' }), [`spec.image: Invalid value: "Busy": spec.image in body should match '^[a-z]+$'`]);
  assert.deepEqual(messages({ image: 'a' }), ['spec.image: Invalid value: "a": spec.image in body should be at least 2 chars long']);
  assert.deepEqual(messages({ image: 'abcdefghi' }), ['spec.image: Too long: may not be more than 8 bytes']);
  assert.deepEqual(messages({ image: 'ab', when: 'yesterday' }), [
    'spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"',
  ]);
  assert.deepEqual(messages({ image: 'ab', tags: [] }), ['spec.tags: Invalid value: []string{}: spec.tags in body should have at least 1 items']);
  assert.deepEqual(messages({ image: 'ab', tags: ['a', 'b', 'c'] }), ['spec.tags: Too many: 3: must have at most 2 items']);
  assert.deepEqual(messages({ image: 'ab', tags: ['a', 'a'] }), ['spec.tags[1]: Duplicate value: "a"']);
  assert.deepEqual(messages({ image: 'ab', tags: [1] }), ['spec.tags[0]: Invalid value: "integer": spec.tags[0] in body must be of type string: "integer"']);
  assert.equal(
    messages({
      image: 'ab',
      ports: [
        { name: 'a', port: 1 },
        { name: 'a', port: 2 },
      ],
    })[0],
    'spec.ports[1]: Duplicate value: map[string]string{"name":"a"}',
  );
  assert.deepEqual(messages({ image: 'ab', limits: { cpu: 'x' } }), [
    'spec.limits[cpu]: Invalid value: "string": spec.limits[cpu] in body must be of type integer: "string"',
  ]);
});

test('nullable, int-or-string, the combinators and embedded resources', () => {
  assert.deepEqual(messages({ image: 'ab', size: null }), ['spec.size: Invalid value: "null": spec.size in body must be of type string: "null"']);
  assert.deepEqual(messages({ image: 'ab', port: 8080 }), []);
  assert.equal(messages({ image: 'ab', port: 1.5 }).length, 1);
  assert.deepEqual(messages({ image: 'ab', mode: 'ab' }), ['spec.mode: Invalid value: "ab": spec.mode in body must validate one and only one schema (oneOf)']);
  assert.deepEqual(messages({ image: 'ab', either: {} }), [
    'spec.either: Invalid value: map[string]string{}: spec.either in body must validate at least one schema (anyOf)',
  ]);
  assert.deepEqual(
    messages({ image: 'ab', either: { x: 1, z: 1 } }).map((m) => m.split(': ')[0]),
    ['spec.either'],
  );
  assert.deepEqual(
    messages({ image: 'ab', template: { metadata: { labels: { 'bad key!': 'x' } } } }).map((m) => m.split(':')[0]),
    ['spec.template.apiVersion', 'spec.template.kind', 'spec.template.metadata.labels'],
  );
});
