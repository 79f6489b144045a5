import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch, PatchError } from './index.js';
import { deployment, deploymentSchema } from '../../../test/support/apiserver/smp-schema.js';

function reason(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof PatchError, String(error));
    return error.reason;
  }
  assert.fail('expected a PatchError');
}

describe('applyPatch', () => {
  const current = { metadata: { name: 'web', labels: { a: '1' } }, spec: { list: [1, 2] } };

  it('dispatches on the three patch content types', () => {
    assert.deepEqual(applyPatch('application/json-patch+json', current, [{ op: 'remove', path: '/spec/list/0' }], undefined), {
      metadata: { name: 'web', labels: { a: '1' } },
      spec: { list: [2] },
    });
    assert.deepEqual(applyPatch('application/merge-patch+json', current, { spec: { list: [3] } }, undefined), {
      metadata: { name: 'web', labels: { a: '1' } },
      spec: { list: [3] },
    });
    const scaled = applyPatch('application/strategic-merge-patch+json', deployment(), { spec: { replicas: 7 } }, deploymentSchema) as Record<string, any>;
    assert.equal(scaled['spec'].replicas, 7);
  });

  it('ignores media type parameters and case', () => {
    assert.deepEqual(applyPatch('Application/Merge-Patch+JSON; charset=utf-8', current, { metadata: { labels: null } }, undefined), {
      metadata: { name: 'web' },
      spec: { list: [1, 2] },
    });
  });

  it('parses a raw body and reports bad JSON as BadRequest', () => {
    const body = Buffer.from('{"metadata":{"labels":{"b":"2"}}}');
    assert.deepEqual(applyPatch('application/strategic-merge-patch+json', current, body, undefined), {
      metadata: { name: 'web', labels: { a: '1', b: '2' } },
      spec: { list: [1, 2] },
    });
    assert.equal(
      reason(() => applyPatch('application/merge-patch+json', current, Buffer.from('{nope'), undefined)),
      'BadRequest',
    );
    assert.equal(
      reason(() => applyPatch('application/json-patch+json', current, new Uint8Array(0), undefined)),
      'BadRequest',
    );
  });

  it('tells malformed patches (400) from inapplicable ones (422)', () => {
    assert.equal(
      reason(() => applyPatch('application/json-patch+json', current, { op: 'add' }, undefined)),
      'BadRequest',
    );
    assert.equal(
      reason(() => applyPatch('application/json-patch+json', current, [{ op: 'remove', path: '/nope' }], undefined)),
      'Invalid',
    );
    assert.equal(
      reason(() => applyPatch('application/strategic-merge-patch+json', current, [1], undefined)),
      'BadRequest',
    );
    assert.equal(
      reason(() => applyPatch('application/apply-patch+yaml', current, {}, undefined)),
      'BadRequest',
    );
  });

  it('turns absurd nesting into BadRequest, not a crash', () => {
    const depth = 200_000;
    const text = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    let patch: unknown;
    try {
      patch = JSON.parse(text);
    } catch {
      return; // this engine's JSON parser already refuses it
    }
    assert.equal(
      reason(() => applyPatch('application/merge-patch+json', {}, patch, undefined)),
      'BadRequest',
    );
  });
});
