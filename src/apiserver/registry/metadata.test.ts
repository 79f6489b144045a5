import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { carryOverMetadata } from './metadata.js';

const stored = (): KubeObject => ({ apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a', uid: 'u', generation: 4 }, spec: { a: 1 }, status: { b: 1 } });

test('generation counts spec changes, not status or metadata ones', () => {
  const updated: KubeObject = { ...stored(), status: { b: 2 }, metadata: { name: 'a', labels: { x: 'y' } } };
  carryOverMetadata(updated, stored());
  assert.equal(updated.metadata.generation, 4);
  const changed = { ...stored(), spec: { a: 2 } };
  carryOverMetadata(changed, stored());
  assert.equal(changed.metadata.generation, 5);
});

test('a custom resource without a status subresource counts status changes too', () => {
  const updated = { ...stored(), status: { b: 2 } };
  carryOverMetadata(updated, stored(), true);
  assert.equal(updated.metadata.generation, 5);
});
