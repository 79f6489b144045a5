import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProtobufDecodeError } from './errors.js';
import { concat, fixed32, fixed64, int, msg, str, tag, varint } from '../../../test/support/apiserver/protobuf/wire-writer.js';
import { WireReader, WireType } from './wire.js';

const reader = (...parts: Uint8Array[]) => new WireReader(concat(...parts));

const assertMalformed = (fn: () => unknown, pattern: RegExp) =>
  assert.throws(fn, (error: unknown) => error instanceof ProtobufDecodeError && error.code === 400 && pattern.test(error.message));

describe('WireReader varints', () => {
  it('reads one-byte, multi-byte and full 64-bit varints', () => {
    assert.equal(reader(varint(0)).readVarint(), 0n);
    assert.equal(reader(varint(300)).readVarint(), 300n);
    assert.deepEqual([...varint(300)], [0xac, 0x02]);
    assert.equal(reader(varint(2n ** 64n - 1n)).readVarint(), 2n ** 64n - 1n);
    assert.equal(reader(varint(2n ** 35n + 5n)).readVarint(), 2n ** 35n + 5n);
  });

  it('reads negative int32 and int64 from ten-byte two’s-complement varints', () => {
    assert.equal(varint(-1).length, 10);
    assert.equal(reader(varint(-1)).readInt32(), -1);
    assert.equal(reader(varint(-2147483648)).readInt32(), -2147483648);
    assert.equal(reader(varint(-42)).readInt64(), -42);
    assert.equal(reader(varint(Number.MAX_SAFE_INTEGER)).readInt64(), Number.MAX_SAFE_INTEGER);
  });

  it('refuses int64 values JSON numbers cannot hold exactly', () => {
    assertMalformed(() => reader(varint(2n ** 53n)).readInt64(), /outside the range/);
  });

  it('reports truncated and over-long varints', () => {
    assertMalformed(() => reader(Uint8Array.of(0x80, 0x80)).readVarint(), /truncated varint at byte 2/);
    assertMalformed(() => reader(new Uint8Array(11).fill(0x80)).readVarint(), /longer than 10 bytes/);
    assertMalformed(() => reader(new Uint8Array(0)).readVarint(), /truncated varint at byte 0/);
  });

  it('reads booleans and doubles', () => {
    assert.equal(reader(varint(1)).readBool(), true);
    assert.equal(reader(varint(0)).readBool(), false);
    const r = reader(fixed64(1, 2.5));
    assert.deepEqual(r.readTag(), { field: 1, wireType: WireType.fixed64 });
    assert.equal(r.readDouble(), 2.5);
  });
});

describe('WireReader tags and length-delimited fields', () => {
  it('splits a tag into field number and wire type', () => {
    assert.deepEqual(reader(tag(17, 2)).readTag(), { field: 17, wireType: 2 });
  });

  it('rejects field number zero', () => {
    assertMalformed(() => reader(Uint8Array.of(0x02)).readTag(), /invalid field number 0/);
  });

  it('returns the payload of a length-delimited field', () => {
    const r = reader(str(1, 'team'));
    r.readTag();
    assert.equal(new TextDecoder().decode(r.readBytes()), 'team');
    assert.equal(r.done, true);
  });

  it('reports a length that runs past the end', () => {
    const r = reader(tag(1, 2), varint(10), Uint8Array.of(1, 2, 3));
    r.readTag();
    assertMalformed(() => r.readBytes(), /length 10 at byte 1 runs past the end .*3 bytes left/);
  });

  it('honours the end of a sub-range', () => {
    const buf = concat(str(1, 'ab'), str(2, 'cd'));
    const r = new WireReader(buf, 0, 4);
    r.readTag();
    r.readBytes();
    assert.equal(r.done, true);
  });
});

describe('WireReader.skip', () => {
  it('skips unknown fields of every wire type, groups included', () => {
    const group = concat(tag(9, WireType.startGroup), int(1, 5), str(2, 'x'), tag(9, WireType.endGroup));
    const r = reader(int(1, 123456789), fixed64(2, 1.5), msg(3, str(1, 'nested')), fixed32(4), group, str(15, 'last'));
    const seen: number[] = [];
    while (!r.done) {
      const t = r.readTag();
      seen.push(t.field);
      if (t.field === 15) assert.equal(new TextDecoder().decode(r.readBytes()), 'last');
      else r.skip(t);
    }
    assert.deepEqual(seen, [1, 2, 3, 4, 9, 15]);
  });

  it('reports truncated fixed-width values and unclosed groups', () => {
    const fixed = reader(tag(1, WireType.fixed64), Uint8Array.of(1, 2, 3));
    assertMalformed(() => fixed.skip(fixed.readTag()), /truncated input: needed 8 bytes at byte 1, only 3 left/);
    const group = reader(tag(2, WireType.startGroup), int(1, 1));
    assertMalformed(() => group.skip(group.readTag()), /group for field 2 is not closed/);
  });

  it('rejects wire types 6 and 7 and a stray end-group', () => {
    for (const wireType of [4, 6, 7]) {
      const r = reader(tag(1, wireType));
      assertMalformed(() => r.skip(r.readTag()), /unexpected wire type/);
    }
  });
});
