import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ControlType,
  FLAG_FIN,
  FrameReader,
  SpdyProtocolError,
  encodeData,
  encodeGoAway,
  encodePing,
  encodeRstStream,
  encodeSettings,
  encodeSynReply,
  encodeSynStream,
  encodeWindowUpdate,
  parseFrame,
} from './frames.js';

describe('SPDY frames', () => {
  it('lays out a control frame as the spec does', () => {
    // |1|version 3|type 6 (PING)|flags 0|length 4|id 1|
    assert.equal(encodePing(1).toString('hex'), '80030006000000040000000' + '1');
    assert.equal(encodeRstStream(3, 5).toString('hex'), '800300030000000800000003' + '00000005');
  });

  it('lays out a data frame with its FIN flag', () => {
    const frame = encodeData(5, Buffer.from('hi'), true);
    assert.equal(frame.toString('hex'), '00000005' + '01' + '000002' + '6869');
    assert.deepEqual(parseFrame(frame), { kind: 'data', streamId: 5, flags: FLAG_FIN, data: Buffer.from('hi') });
  });

  it('round-trips every frame type', () => {
    const block = Buffer.from([1, 2, 3]);
    assert.deepEqual(parseFrame(encodeSynStream(7, block, { fin: true, priority: 3, associatedId: 1 })), {
      kind: 'syn_stream',
      streamId: 7,
      associatedId: 1,
      priority: 3,
      flags: FLAG_FIN,
      headerBlock: block,
    });
    assert.deepEqual(parseFrame(encodeSynReply(7, block)), { kind: 'syn_reply', streamId: 7, flags: 0, headerBlock: block });
    assert.deepEqual(parseFrame(encodeRstStream(9, 3)), { kind: 'rst_stream', streamId: 9, status: 3 });
    assert.deepEqual(parseFrame(encodePing(42)), { kind: 'ping', id: 42 });
    assert.deepEqual(parseFrame(encodeGoAway(11, 0)), { kind: 'goaway', lastGoodStreamId: 11, status: 0 });
    assert.deepEqual(parseFrame(encodeWindowUpdate(1, 65536)), { kind: 'window_update', streamId: 1, delta: 65536 });
    assert.deepEqual(
      parseFrame(
        encodeSettings([
          { id: 7, value: 1 << 20 },
          { flags: 1, id: 4, value: 100 },
        ]),
      ),
      {
        kind: 'settings',
        flags: 0,
        entries: [
          { flags: 0, id: 7, value: 1 << 20 },
          { flags: 1, id: 4, value: 100 },
        ],
      },
    );
  });

  it('reports unknown control types instead of failing on them', () => {
    const frame = Buffer.from('80030042' + '00' + '000001' + 'ff', 'hex');
    assert.deepEqual(parseFrame(frame), { kind: 'unknown', type: 0x42, flags: 0, payload: Buffer.from([0xff]) });
  });

  it('refuses other SPDY versions and truncated payloads', () => {
    assert.throws(() => parseFrame(Buffer.from('80020006000000040000000' + '1', 'hex')), SpdyProtocolError);
    assert.throws(() => parseFrame(Buffer.from('8003000600000002' + '0000', 'hex')), /PING frame too short/);
  });

  it('reassembles frames split anyhow and splits frames that share a chunk', () => {
    const stream = Buffer.concat([encodePing(1), encodeData(1, Buffer.alloc(1000, 7)), encodeGoAway(1, 0)]);
    const reader = new FrameReader();
    const oneByOne = [...stream].flatMap((byte) => reader.push(Buffer.from([byte])));
    assert.deepEqual(
      oneByOne.map((f) => f.kind),
      ['ping', 'data', 'goaway'],
    );
    assert.equal(reader.pending, 0);
    const together = new FrameReader().push(stream);
    assert.deepEqual(
      together.map((f) => f.kind),
      ['ping', 'data', 'goaway'],
    );
    const partial = new FrameReader();
    assert.deepEqual(
      partial.push(stream.subarray(0, 20)).map((f) => f.kind),
      ['ping'],
    );
    assert.equal(partial.pending, 8);
  });

  it('names the control types as the spec numbers them', () => {
    assert.deepEqual(ControlType, { SynStream: 1, SynReply: 2, RstStream: 3, Settings: 4, Ping: 6, GoAway: 7, Headers: 8, WindowUpdate: 9 });
  });
});
