import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyJsonPatch, MAX_JSON_PATCH_OPERATIONS, parseJsonPatch } from './json-patch.js';
import { PatchError } from './errors.js';
import { deepFreeze } from '../../../test/support/apiserver/smp-schema.js';

function rejects(fn: () => unknown, reason: 'BadRequest' | 'Invalid', message?: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof PatchError, `expected a PatchError, got ${String(error)}`);
    assert.equal(error.reason, reason, error.message);
    assert.equal(error.code, reason === 'BadRequest' ? 400 : 422);
    if (message) assert.match(error.message, message);
    return true;
  });
}

describe('JSON patch: RFC 6902 appendix A', () => {
  it('A.1 adds an object member', () => {
    assert.deepEqual(applyJsonPatch({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }]), { baz: 'qux', foo: 'bar' });
  });

  it('A.2 adds an array element', () => {
    assert.deepEqual(applyJsonPatch({ foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }]), { foo: ['bar', 'qux', 'baz'] });
  });

  it('A.3 removes an object member', () => {
    assert.deepEqual(applyJsonPatch({ baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }]), { foo: 'bar' });
  });

  it('A.4 removes an array element', () => {
    assert.deepEqual(applyJsonPatch({ foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }]), { foo: ['bar', 'baz'] });
  });

  it('A.5 replaces a value', () => {
    assert.deepEqual(applyJsonPatch({ baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }]), { baz: 'boo', foo: 'bar' });
  });

  it('A.6 moves a value', () => {
    const doc = { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } };
    assert.deepEqual(applyJsonPatch(doc, [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }]), {
      foo: { bar: 'baz' },
      qux: { corge: 'grault', thud: 'fred' },
    });
  });

  it('A.7 moves an array element', () => {
    const doc = { foo: ['all', 'grass', 'cows', 'eat'] };
    assert.deepEqual(applyJsonPatch(doc, [{ op: 'move', from: '/foo/1', path: '/foo/3' }]), { foo: ['all', 'cows', 'eat', 'grass'] });
  });

  it('A.8 passes a test', () => {
    const doc = { baz: 'qux', foo: ['a', 2, 'c'] };
    const patch = [
      { op: 'test', path: '/baz', value: 'qux' },
      { op: 'test', path: '/foo/1', value: 2 },
    ];
    assert.deepEqual(applyJsonPatch(doc, patch), doc);
  });

  it('A.9 fails a test', () => {
    rejects(() => applyJsonPatch({ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }]), 'Invalid', /^the "test" operation failed at \/baz$/);
  });

  it('A.10 adds a nested member object', () => {
    assert.deepEqual(applyJsonPatch({ foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }]), { foo: 'bar', child: { grandchild: {} } });
  });

  it('A.11 ignores unrecognized members of an operation', () => {
    assert.deepEqual(applyJsonPatch({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }]), { foo: 'bar', baz: 'qux' });
  });

  it('A.12 refuses to add to a nonexistent target', () => {
    rejects(() => applyJsonPatch({ foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }]), 'Invalid', /"add" operation failed at \/baz\/bat/);
  });

  it('A.14 unescapes ~01 to ~1, not to /', () => {
    const doc = { '/': 9, '~1': 10 };
    assert.deepEqual(applyJsonPatch(doc, [{ op: 'test', path: '/~01', value: 10 }]), doc);
  });

  it('A.15 tells the string "10" from the number 10', () => {
    rejects(() => applyJsonPatch({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: '10' }]), 'Invalid');
  });

  it('A.16 adds an array as one element', () => {
    assert.deepEqual(applyJsonPatch({ foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }]), { foo: ['bar', ['abc', 'def']] });
  });
});

describe('JSON patch: pointers and arrays', () => {
  it('resolves ~1 as "/" and ~0 as "~" in member names', () => {
    const doc = { metadata: { labels: { 'app.kubernetes.io/name': 'web', 'a~b': 'x' } } };
    const result = applyJsonPatch(doc, [
      { op: 'replace', path: '/metadata/labels/app.kubernetes.io~1name', value: 'api' },
      { op: 'remove', path: '/metadata/labels/a~0b' },
    ]);
    assert.deepEqual(result, { metadata: { labels: { 'app.kubernetes.io/name': 'api' } } });
  });

  it('appends with "-" and inserts at the length', () => {
    assert.deepEqual(
      applyJsonPatch({ a: [1] }, [
        { op: 'add', path: '/a/-', value: 2 },
        { op: 'add', path: '/a/2', value: 3 },
      ]),
      { a: [1, 2, 3] },
    );
  });

  it('checks array bounds for every operation', () => {
    rejects(() => applyJsonPatch({ a: [1, 2] }, [{ op: 'add', path: '/a/3', value: 0 }]), 'Invalid', /index 3 is out of bounds \(the array has 2 items\)/);
    rejects(() => applyJsonPatch({ a: [1, 2] }, [{ op: 'remove', path: '/a/2' }]), 'Invalid', /out of bounds/);
    rejects(() => applyJsonPatch({ a: [1, 2] }, [{ op: 'replace', path: '/a/-', value: 0 }]), 'Invalid', /"-" is not an array index/);
    rejects(() => applyJsonPatch({ a: [1, 2] }, [{ op: 'test', path: '/a/9', value: 0 }]), 'Invalid');
  });

  it('accepts only canonical array indexes', () => {
    for (const token of ['01', '-1', '1e0', ' 1', '+1']) {
      rejects(() => applyJsonPatch({ a: [1, 2] }, [{ op: 'replace', path: `/a/${token}`, value: 0 }]), 'Invalid', /is not an array index/);
    }
  });

  it('reports missing paths for remove and replace', () => {
    rejects(
      () => applyJsonPatch({ spec: {} }, [{ op: 'remove', path: '/spec/replicas' }]),
      'Invalid',
      /^the "remove" operation failed at \/spec\/replicas: the path does not exist$/,
    );
    rejects(
      () => applyJsonPatch({ spec: {} }, [{ op: 'replace', path: '/spec/replicas', value: 1 }]),
      'Invalid',
      /"replace" operation failed at \/spec\/replicas/,
    );
    rejects(() => applyJsonPatch({ spec: 3 }, [{ op: 'add', path: '/spec/x', value: 1 }]), 'Invalid', /not an object or an array/);
  });

  it('does not find inherited members', () => {
    rejects(() => applyJsonPatch({}, [{ op: 'remove', path: '/constructor' }]), 'Invalid');
    rejects(() => applyJsonPatch({}, [{ op: 'test', path: '/toString', value: null }]), 'Invalid');
  });

  it('adds a "__proto__" member without touching prototypes', () => {
    const result = applyJsonPatch({}, [{ op: 'add', path: '/__proto__', value: { polluted: true } }]) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(result), Object.prototype);
    assert.deepEqual(Object.keys(result), ['__proto__']);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });

  it('operates on the whole document with the empty pointer', () => {
    assert.deepEqual(applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '', value: [1] }]), [1]);
    assert.deepEqual(applyJsonPatch({ a: 1 }, [{ op: 'add', path: '', value: { b: 2 } }]), { b: 2 });
    assert.deepEqual(applyJsonPatch({ a: 1 }, [{ op: 'test', path: '', value: { a: 1 } }]), { a: 1 });
    rejects(() => applyJsonPatch({ a: 1 }, [{ op: 'remove', path: '' }]), 'Invalid');
  });
});

describe('JSON patch: move, copy, test', () => {
  it('copies deeply, so later operations do not reach the source', () => {
    const result = applyJsonPatch({ a: { x: [1] } }, [
      { op: 'copy', from: '/a', path: '/b' },
      { op: 'add', path: '/b/x/-', value: 2 },
    ]);
    assert.deepEqual(result, { a: { x: [1] }, b: { x: [1, 2] } });
  });

  it('moves to the same place as a no-op, but still needs the source', () => {
    assert.deepEqual(applyJsonPatch({ a: 1 }, [{ op: 'move', from: '/a', path: '/a' }]), { a: 1 });
    rejects(() => applyJsonPatch({ a: 1 }, [{ op: 'move', from: '/b', path: '/b' }]), 'Invalid', /\/b \(from\)/);
    rejects(() => applyJsonPatch({ a: 1 }, [{ op: 'copy', from: '/b', path: '/c' }]), 'Invalid', /"copy" operation failed at \/b \(from\)/);
  });

  it('refuses to move a value into its own child', () => {
    rejects(() => applyJsonPatch({ a: { b: 1 } }, [{ op: 'move', from: '/a', path: '/a/c' }]), 'BadRequest', /into its own child/);
    assert.deepEqual(applyJsonPatch({ a: 1 }, [{ op: 'move', from: '/a', path: '/ab' }]), { ab: 1 });
  });

  it('compares objects regardless of member order, arrays in order', () => {
    const doc = { spec: { selector: { a: '1', b: '2' }, list: [1, 2] } };
    assert.doesNotThrow(() => applyJsonPatch(doc, [{ op: 'test', path: '/spec/selector', value: { b: '2', a: '1' } }]));
    rejects(() => applyJsonPatch(doc, [{ op: 'test', path: '/spec/list', value: [2, 1] }]), 'Invalid');
    assert.doesNotThrow(() => applyJsonPatch({ v: null }, [{ op: 'test', path: '/v', value: null }]));
    rejects(() => applyJsonPatch({}, [{ op: 'test', path: '/v', value: null }]), 'Invalid', /does not exist/);
  });

  it('uses test as a precondition for a replica change', () => {
    const deployment = { spec: { replicas: 3 } };
    const patch = [
      { op: 'test', path: '/spec/replicas', value: 3 },
      { op: 'replace', path: '/spec/replicas', value: 5 },
    ];
    assert.deepEqual(applyJsonPatch(deployment, patch), { spec: { replicas: 5 } });
    rejects(() => applyJsonPatch({ spec: { replicas: 4 } }, patch), 'Invalid', /^the "test" operation failed at \/spec\/replicas$/);
  });
});

describe('JSON patch: validation and purity', () => {
  it('rejects malformed documents as BadRequest before applying anything', () => {
    rejects(() => applyJsonPatch({}, { op: 'add' }), 'BadRequest', /must be a JSON array/);
    rejects(() => applyJsonPatch({}, ['add']), 'BadRequest', /operation 0 is not a JSON object/);
    rejects(() => applyJsonPatch({}, [{ path: '/a' }]), 'BadRequest', /no "op"/);
    rejects(() => applyJsonPatch({}, [{ op: 'frobnicate', path: '/a' }]), 'BadRequest', /unknown "op": "frobnicate"/);
    rejects(() => applyJsonPatch({}, [{ op: 'add', value: 1 }]), 'BadRequest', /no "path"/);
    rejects(() => applyJsonPatch({}, [{ op: 'add', path: '/a' }]), 'BadRequest', /\("add"\) has no "value"/);
    rejects(() => applyJsonPatch({}, [{ op: 'copy', path: '/a' }]), 'BadRequest', /no "from"/);
    rejects(() => applyJsonPatch({}, [{ op: 'add', path: 'a', value: 1 }]), 'BadRequest', /must be empty or start with "\/"/);
    rejects(() => applyJsonPatch({}, [{ op: 'remove', path: '/a~2b' }]), 'BadRequest', /"~" must be followed by "0" or "1"/);
    rejects(() => applyJsonPatch({}, [{ op: 'remove', path: '/a~' }]), 'BadRequest');
    // The bad operation comes after one that would fail on this document: still a 400.
    rejects(
      () =>
        applyJsonPatch({}, [
          { op: 'remove', path: '/missing' },
          { op: 'nope', path: '' },
        ]),
      'BadRequest',
    );
  });

  it('treats a null value as a value', () => {
    assert.deepEqual(applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '/a', value: null }]), { a: null });
  });

  it('limits the number of operations', () => {
    const patch = Array.from({ length: MAX_JSON_PATCH_OPERATIONS + 1 }, () => ({ op: 'test', path: '', value: {} }));
    rejects(() => parseJsonPatch(patch), 'BadRequest', /allowed number of operations/);
  });

  it('never changes its inputs, and shares nothing with them', () => {
    const doc = deepFreeze({ spec: { containers: [{ name: 'a', env: [{ name: 'X' }] }] } });
    const value = { name: 'b' };
    const patch = deepFreeze([
      { op: 'add', path: '/spec/containers/-', value },
      { op: 'remove', path: '/spec/containers/0/env/0' },
    ]);
    const result = applyJsonPatch(doc, patch) as { spec: { containers: unknown[] } };
    assert.deepEqual(result, { spec: { containers: [{ name: 'a', env: [] }, { name: 'b' }] } });
    assert.notEqual(result.spec.containers[1], value);
  });

  it('leaves the input as it was when a later operation fails', () => {
    const doc = { a: 1 };
    rejects(
      () =>
        applyJsonPatch(doc, [
          { op: 'remove', path: '/a' },
          { op: 'test', path: '/a', value: 1 },
        ]),
      'Invalid',
    );
    assert.deepEqual(doc, { a: 1 });
  });
});
