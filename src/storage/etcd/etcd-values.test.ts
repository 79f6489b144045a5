import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { MAX_VALUE_BYTES, ValueTooLargeError } from '../errors.js';
import { withResourceVersion } from '../watch-hub.js';
import { decodeValue, encodeValue, withRevisionBytes, withRevisionText } from './etcd-values.js';

const object = (extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'ç-1', namespace: 'default', resourceVersion: '7', labels: { a: 'b' } },
  data: { text: 'a "resourceVersion":"" inside a string', ...extra },
});

describe('etcd values', () => {
  it('store the resourceVersion empty, in place, and read back the JSON SQLite would store', () => {
    const input = object();
    const value = encodeValue('/registry/configmaps/default/c', input);
    assert.equal((JSON.parse(value) as KubeObject).metadata.resourceVersion, '');
    const expected = JSON.stringify(withResourceVersion(input, 42));
    assert.equal(withRevisionText(value, 42), expected);
    assert.equal(withRevisionBytes(Buffer.from(value), '42').toString('utf8'), expected);
    assert.deepEqual(decodeValue(Buffer.from(value), '42'), JSON.parse(expected));
  });

  it('fall back to parsing when a nested field also holds an empty resourceVersion', () => {
    const input = object({ ref: { kind: 'Pod', resourceVersion: '' } });
    const value = encodeValue('/k', input);
    const expected = JSON.stringify(withResourceVersion(input, 9));
    assert.equal(withRevisionText(value, 9), expected);
    assert.equal(withRevisionBytes(Buffer.from(value), 9).toString('utf8'), expected);
  });

  it('read values written without the empty field (by another tool) too', () => {
    const plain = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    assert.equal(decodeValue(Buffer.from(plain), 5).metadata.resourceVersion, '5');
  });

  it('refuse a value over MAX_VALUE_BYTES counted in UTF-8 bytes', () => {
    const big = object({ blob: 'é'.repeat(MAX_VALUE_BYTES / 2) });
    assert.throws(() => encodeValue('/k', big), ValueTooLargeError);
    assert.doesNotThrow(() => encodeValue('/k', object({ blob: 'é'.repeat(MAX_VALUE_BYTES / 2 - 200) })));
  });
});
