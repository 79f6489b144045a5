import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expand, expandAll } from './expand.js';

const env: Record<string, string> = { A: 'alpha', B: 'beta', EMPTY: '' };
const lookup = (name: string): string | undefined => env[name];

test('expand replaces defined references and keeps undefined ones', () => {
  assert.equal(expand('$(A)-$(B)', lookup), 'alpha-beta');
  assert.equal(expand('x$(NOPE)y', lookup), 'x$(NOPE)y');
  assert.equal(expand('[$(EMPTY)]', lookup), '[]');
});

test('expand honours escapes and malformed references', () => {
  assert.equal(expand('$$(A)', lookup), '$(A)');
  assert.equal(expand('$$', lookup), '$');
  assert.equal(expand('cost: $5', lookup), 'cost: $5');
  assert.equal(expand('$(A', lookup), '$(A');
  assert.equal(expand('$()', lookup), '$()');
  assert.equal(expand('end$', lookup), 'end$');
  assert.equal(expand('$(A$(B)', lookup), '$(A$(B)');
});

test('expandAll maps command and args, leaving undefined alone', () => {
  assert.deepEqual(expandAll(['echo', '$(A)'], env), ['echo', 'alpha']);
  assert.equal(expandAll(undefined, env), undefined);
  assert.deepEqual(expandAll(['$(toString)'], env), ['$(toString)']);
});
