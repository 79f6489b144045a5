import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FramingError, TcpFramer } from './tcp-framing.js';

const frame = (body: Buffer) => Buffer.concat([Buffer.from([body.length >> 8, body.length & 0xff]), body]);

test('TcpFramer reassembles messages split across chunks and splits several in one chunk', () => {
  const first = Buffer.alloc(20, 1);
  const second = Buffer.alloc(300, 2);
  const stream = Buffer.concat([frame(first), frame(second)]);
  const framer = new TcpFramer();
  assert.deepEqual(framer.push(stream.subarray(0, 1)), []);
  assert.deepEqual(framer.push(stream.subarray(1, 30)), [first]);
  assert.deepEqual(framer.push(stream.subarray(30, 100)), []);
  assert.deepEqual(framer.push(stream.subarray(100)), [second]);
  assert.deepEqual(new TcpFramer().push(stream), [first, second]);
});

test('TcpFramer rejects a length no DNS message can have', () => {
  assert.throws(() => new TcpFramer().push(Buffer.from([0, 3, 1, 2, 3])), FramingError);
});
