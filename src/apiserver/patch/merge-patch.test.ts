import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyMergePatch } from './merge-patch.js';
import { deepFreeze } from '../../../test/support/apiserver/smp-schema.js';

describe('JSON merge patch: RFC 7386', () => {
  it('passes every example of appendix A', () => {
    const cases: Array<[unknown, unknown, unknown]> = [
      [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
      [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
      [{ a: 'b' }, { a: null }, {}],
      [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
      [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
      [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
      [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
      [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
      [
        ['a', 'b'],
        ['c', 'd'],
        ['c', 'd'],
      ],
      [{ a: 'b' }, ['c'], ['c']],
      [{ a: 'foo' }, null, null],
      [{ a: 'foo' }, 'bar', 'bar'],
      [{ e: null }, { a: 1 }, { e: null, a: 1 }],
      [[1, 2], { a: 'b', c: null }, { a: 'b' }],
      [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    ];
    for (const [target, patch, expected] of cases) {
      assert.deepEqual(applyMergePatch(target, patch), expected, `${JSON.stringify(target)} + ${JSON.stringify(patch)}`);
    }
  });

  it('applies the example of section 3', () => {
    const target = { title: 'Goodbye!', author: { givenName: 'John', familyName: 'Doe' }, tags: ['example', 'sample'], content: 'This will be unchanged' };
    const patch = { title: 'Hello!', phoneNumber: '+01-123-456-7890', author: { familyName: null }, tags: ['example'] };
    assert.deepEqual(applyMergePatch(target, patch), {
      title: 'Hello!',
      author: { givenName: 'John' },
      tags: ['example'],
      content: 'This will be unchanged',
      phoneNumber: '+01-123-456-7890',
    });
  });
});

describe('JSON merge patch on Kubernetes objects', () => {
  it('scales and relabels a Deployment, replacing lists whole', () => {
    const current = {
      metadata: { name: 'web', labels: { app: 'web', tier: 'front' } },
      spec: {
        replicas: 2,
        template: {
          spec: {
            containers: [
              { name: 'a', image: 'a:1' },
              { name: 'b', image: 'b:1' },
            ],
          },
        },
      },
    };
    const patch = { metadata: { labels: { tier: null, team: 'x' } }, spec: { replicas: 5, template: { spec: { containers: [{ name: 'c', image: 'c:1' }] } } } };
    assert.deepEqual(applyMergePatch(current, patch), {
      metadata: { name: 'web', labels: { app: 'web', team: 'x' } },
      spec: { replicas: 5, template: { spec: { containers: [{ name: 'c', image: 'c:1' }] } } },
    });
  });

  it('never changes its inputs, and shares nothing with them', () => {
    const current = deepFreeze({ metadata: { labels: { a: '1' } }, spec: { list: [{ x: 1 }] } });
    const patch = deepFreeze({ metadata: { labels: { b: '2' } }, spec: { other: [{ y: 2 }] } });
    const result = applyMergePatch(current, patch) as { spec: { list: unknown[]; other: unknown[] } };
    assert.deepEqual(result, { metadata: { labels: { a: '1', b: '2' } }, spec: { list: [{ x: 1 }], other: [{ y: 2 }] } });
    assert.notEqual(result.spec.list, current.spec.list);
    assert.notEqual(result.spec.other, patch.spec.other);
  });

  it('treats "__proto__" and "constructor" as ordinary members', () => {
    const patch = JSON.parse('{"metadata":{"labels":{"__proto__":{"polluted":"yes"},"constructor":"c"}}}') as unknown;
    const result = applyMergePatch({ metadata: {} }, patch) as { metadata: { labels: Record<string, unknown> } };
    assert.deepEqual(Object.keys(result.metadata.labels), ['__proto__', 'constructor']);
    assert.equal(Object.getPrototypeOf(result.metadata.labels), Object.prototype);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });
});
