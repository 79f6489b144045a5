import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateStructuralSchema } from './structural.js';

const at = 'spec.versions[0].schema.openAPIV3Schema';
const problems = (schema: unknown) => validateStructuralSchema(schema, at).map((e) => `${e.field.slice(at.length)}: ${e.message}`);

test('a structural schema passes', () => {
  assert.deepEqual(
    problems({
      type: 'object',
      properties: {
        metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } },
        spec: {
          type: 'object',
          properties: {
            port: { 'x-kubernetes-int-or-string': true },
            any: { 'x-kubernetes-preserve-unknown-fields': true },
            list: { type: 'array', items: { type: 'string' } },
            choice: { type: 'string', anyOf: [{ pattern: '^a' }, { maxLength: 1 }] },
          },
        },
        status: { type: 'object', additionalProperties: { type: 'integer', default: 1 } },
      },
    }),
    [],
  );
});

test("what makes a schema not structural, with Kubernetes' paths and messages", () => {
  assert.deepEqual(problems(undefined), [': Required value: schemas are required']);
  assert.deepEqual(problems({ properties: {} }), ['.type: Required value: must not be empty at the root']);
  assert.deepEqual(problems({ type: 'string' }), ['.type: Invalid value: "string": must be object at the root']);
  assert.deepEqual(problems({ type: 'object', properties: { spec: { properties: {} } } }), [
    '.properties[spec].type: Required value: must not be empty for specified object fields',
  ]);
  assert.deepEqual(problems({ type: 'object', properties: { l: { type: 'array', items: {} } } }), [
    '.properties[l].items.type: Required value: must not be empty for specified array items',
  ]);
  assert.deepEqual(problems({ type: 'object', properties: { l: { type: 'array' } } }), ['.properties[l].items: Required value: must be specified']);
  assert.deepEqual(
    problems({ type: 'object', properties: { s: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } } } }),
    ['.properties[s].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive'],
  );
  assert.deepEqual(problems({ type: 'object', properties: { s: { type: 'string', anyOf: [{ type: 'string' }] } } }), [
    '.properties[s].anyOf[0].type: Forbidden: must be empty to be structural',
  ]);
  assert.deepEqual(problems({ type: 'object', properties: { s: { type: 'object', $ref: '#/x' } } }), ['.properties[s].$ref: Forbidden: $ref is not supported']);
  assert.deepEqual(problems({ type: 'object', properties: { p: { type: 'string', 'x-kubernetes-int-or-string': true } } }), [
    '.properties[p].type: Invalid value: "string": must be empty if x-kubernetes-int-or-string is true',
  ]);
  assert.deepEqual(problems({ type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } }), [
    '.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified',
  ]);
  assert.deepEqual(problems({ type: 'object', properties: { u: { type: 'array', uniqueItems: true, items: { type: 'string' } } } }), [
    '.properties[u].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
  ]);
  assert.deepEqual(problems({ type: 'object', properties: { r: { type: 'string', pattern: '(' } } }), [
    '.properties[r].pattern: Invalid value: "(": must be a valid regular expression',
  ]);
});

test('a default must be pruned and valid as its own node says', () => {
  assert.deepEqual(problems({ type: 'object', properties: { n: { type: 'integer', minimum: 1, default: 0 } } }), [
    '.properties[n].default: Invalid value: 0: spec.versions[0].schema.openAPIV3Schema.properties[n].default in body should be greater than or equal to 1',
  ]);
  assert.deepEqual(
    problems({ type: 'object', properties: { o: { type: 'object', properties: { a: { type: 'string' } }, default: { b: 1 } } } }).map((p) => p.split(': ')[0]),
    ['.properties[o].default'],
  );
});
