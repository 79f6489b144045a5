import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonEqual, semanticEqual } from './json-equal.js';

test('labels in another key order are equal (JSON.stringify said they differ)', () => {
  const built = { app: 'web', tier: 'front' };
  const readBack = { tier: 'front', app: 'web' };
  assert.notEqual(JSON.stringify(built), JSON.stringify(readBack));
  assert.equal(jsonEqual(built, readBack), true);
  assert.equal(jsonEqual(built, { app: 'web', tier: 'back' }), false);
  assert.equal(jsonEqual(built, { app: 'web' }), false);
  assert.equal(jsonEqual({ app: 'web' }, built), false);
});

test('jsonEqual: arrays in order, undefined members as absent, nothing else loose', () => {
  assert.equal(jsonEqual([{ key: 'a', effect: 'NoSchedule' }], [{ effect: 'NoSchedule', key: 'a' }]), true);
  assert.equal(jsonEqual([1, 2], [2, 1]), false);
  assert.equal(jsonEqual({ a: 1, b: undefined }, { a: 1 }), true);
  assert.equal(jsonEqual({ a: null }, {}), false);
  assert.equal(jsonEqual([], {}), false);
  assert.equal(jsonEqual('1', 1), false);
  assert.equal(jsonEqual({ constructor: 1 }, { constructor: 1 }), true);
  assert.equal(jsonEqual({}, { constructor: undefined }), true);
});

test('semanticEqual: missing, null, empty list and empty map are one', () => {
  assert.equal(semanticEqual({ selector: {} }, {}), true);
  assert.equal(semanticEqual({ items: null }, { items: [] }), true);
  assert.equal(semanticEqual({ b: 2, a: 1 }, { a: 1, b: 2 }), true);
  assert.equal(semanticEqual({ a: [1] }, { a: [] }), false);
});
