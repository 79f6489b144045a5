import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeMessage } from './decode.js';
import { ProtobufDecodeError } from './errors.js';
import { bool, bytes as bytesField, i32, map, message, msg, PTR, quantity, REP, str } from './messages/schema.js';
import { bytes, concat, entry, fixed32, int, msg as sub, str as s, tag, varint } from '../../../test/support/apiserver/protobuf/wire-writer.js';

const inner = message('Inner', { 1: str('a'), 2: str('b') });
const sample = message('Sample', {
  1: str('plain'),
  2: str('pointer', PTR),
  3: i32('count'),
  4: i32('replicas', PTR),
  5: bool('flag'),
  6: bool('optional', PTR),
  7: i32('values', REP),
  8: str('names', REP),
  9: map('labels'),
  10: map('limits', 'quantity'),
  11: msg('inner', inner),
  12: msg('items', inner, REP),
  13: msg('embedded', inner, { inline: true }),
  14: bytesField('blob'),
  15: map('data', 'bytes'),
  16: quantity('size'),
});

const decode = (...parts: Uint8Array[]) => decodeMessage(concat(...parts), sample, 'Sample');

describe('decodeMessage presence rules', () => {
  it('drops zero scalars of non-pointer fields and keeps them for pointers', () => {
    const out = decode(s(1, ''), s(2, ''), int(3, 0), int(4, 0), int(5, 0), int(6, 0));
    assert.deepEqual(out, { pointer: '', replicas: 0, optional: false });
  });

  it('keeps set values and lets the last occurrence win', () => {
    assert.deepEqual(decode(s(1, 'x'), int(3, 2), int(3, 7), int(5, 1)), { plain: 'x', count: 7, flag: true });
    assert.deepEqual(decode(s(1, 'x'), s(1, '')), {});
  });

  it('turns a present empty message into {} and an absent one into nothing', () => {
    assert.deepEqual(decode(sub(11)), { inner: {} });
    assert.deepEqual(decode(), {});
  });

  it('merges a message field that appears twice', () => {
    assert.deepEqual(decode(sub(11, s(1, 'x')), sub(11, s(2, 'y'))), { inner: { a: 'x', b: 'y' } });
  });

  it('lifts inline messages into the parent', () => {
    assert.deepEqual(decode(sub(13, s(1, 'x')), s(1, 'p')), { a: 'x', plain: 'p' });
  });
});

describe('decodeMessage lists and maps', () => {
  it('reads packed and unpacked repeated numbers', () => {
    const packed = bytes(7, concat(varint(1), varint(-1), varint(300)));
    assert.deepEqual(decode(packed, int(7, 5)), { values: [1, -1, 300, 5] });
  });

  it('keeps empty strings and empty messages inside lists', () => {
    assert.deepEqual(decode(s(8, 'a'), s(8, ''), sub(12), sub(12, s(1, 'z'))), { names: ['a', ''], items: [{}, { a: 'z' }] });
  });

  it('reads map entries, filling in values the wire left out', () => {
    const out = decode(
      entry(9, 'app', s(2, 'web')),
      entry(9, 'tier', new Uint8Array(0)),
      entry(10, 'cpu', sub(2, s(1, '500m'))),
      entry(10, 'gpu', new Uint8Array(0)),
    );
    assert.deepEqual(out, { labels: { app: 'web', tier: '' }, limits: { cpu: '500m', gpu: '0' } });
  });

  it('keeps a "__proto__" map key as an ordinary property', () => {
    const out = decode(entry(9, '__proto__', s(2, 'x')));
    const labels = out['labels'] as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(labels), Object.prototype);
    assert.deepEqual(Object.keys(labels), ['__proto__']);
    assert.equal(Object.getOwnPropertyDescriptor(labels, '__proto__')?.value, 'x');
  });

  it('encodes bytes as base64, as JSON does for []byte', () => {
    const raw = Uint8Array.of(0, 255, 16);
    assert.deepEqual(decode(bytes(14, raw), entry(15, 'k', bytes(2, raw))), { blob: 'AP8Q', data: { k: 'AP8Q' } });
  });
});

describe('decodeMessage robustness', () => {
  it('skips unknown fields of any wire type', () => {
    const unknown = concat(int(99, 5), fixed32(98), s(97, 'later field'), tag(96, 1), new Uint8Array(8));
    assert.deepEqual(decode(unknown, s(1, 'kept')), { plain: 'kept' });
  });

  it('names the field when the wire type does not match the table', () => {
    assert.throws(
      () => decode(int(1, 3)),
      (error: unknown) => {
        assert.ok(error instanceof ProtobufDecodeError);
        assert.equal(error.code, 400);
        assert.match(error.message, /Sample\.plain: field 1 has wire type 0, expected 2/);
        return true;
      },
    );
  });

  it('reports a truncated nested message', () => {
    const body = sub(11, s(1, 'abc'));
    assert.throws(() => decode(body.subarray(0, body.length - 1)), ProtobufDecodeError);
  });
});
