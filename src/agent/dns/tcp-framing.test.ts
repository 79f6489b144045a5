import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FramingError, TcpFramer } from './tcp-framing.js';

const frame = (body: Buffer) => Buffer.concat([Buffer.from([body.length >> 8, body.length & 0xff]), body]);

function drain(framer: TcpFramer): Buffer[] {
  const messages: Buffer[] = [];
  for (let message = framer.next(); message; message = framer.next()) messages.push(message);
  return messages;
}

test('TcpFramer reassembles messages split across chunks and splits several in one chunk', () => {
  const first = Buffer.alloc(20, 1);
  const second = Buffer.alloc(300, 2);
  const stream = Buffer.concat([frame(first), frame(second)]);
  const framer = new TcpFramer();
  const feed = (from: number, to?: number) => {
    framer.push(stream.subarray(from, to));
    return drain(framer);
  };
  assert.deepEqual(feed(0, 1), []);
  assert.deepEqual(feed(1, 30), [first]);
  assert.equal(framer.buffered, 8);
  assert.deepEqual(feed(30, 100), []);
  assert.deepEqual(feed(100), [second]);
  assert.equal(framer.buffered, 0);
  const whole = new TcpFramer();
  whole.push(stream);
  assert.deepEqual(drain(whole), [first, second]);
});

test('TcpFramer rejects a length no DNS message can have', () => {
  const framer = new TcpFramer();
  framer.push(Buffer.from([0, 3, 1, 2, 3]));
  assert.throws(() => framer.next(), FramingError);
});
