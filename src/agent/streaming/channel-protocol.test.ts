import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Channel, V4_CHANNEL, V5_CHANNEL, decodeChannelMessage, encodeChannelMessage, parseTerminalSize, selectChannelProtocol } from './channel-protocol.js';

describe('channel protocols', () => {
  it('puts the stream number in byte 0', () => {
    assert.deepEqual(encodeChannelMessage(Channel.stdout, Buffer.from('hi')), Buffer.from([1, 0x68, 0x69]));
    assert.deepEqual(encodeChannelMessage(Channel.error), Buffer.from([3]));
    assert.deepEqual(decodeChannelMessage(Buffer.from([0, 0x61]), V5_CHANNEL), { kind: 'data', channel: 0, data: Buffer.from('a') });
    assert.deepEqual(decodeChannelMessage(Buffer.from([2]), V4_CHANNEL), { kind: 'data', channel: 2, data: Buffer.alloc(0) });
  });

  it('knows CLOSE only in v5, and only naming one stream', () => {
    assert.deepEqual(decodeChannelMessage(Buffer.from([255, 0]), V5_CHANNEL), { kind: 'close', channel: 0 });
    assert.equal(decodeChannelMessage(Buffer.from([255, 0]), V4_CHANNEL).kind, 'invalid');
    assert.equal(decodeChannelMessage(Buffer.from([255, 0, 1]), V5_CHANNEL).kind, 'invalid');
    assert.equal(decodeChannelMessage(Buffer.alloc(0), V5_CHANNEL).kind, 'invalid');
  });

  it('prefers v5, then v4, whatever order the client offers them in', () => {
    assert.equal(selectChannelProtocol(['v4.channel.k8s.io', ' v5.channel.k8s.io']), V5_CHANNEL);
    assert.equal(selectChannelProtocol(['v4.channel.k8s.io', 'v3.channel.k8s.io']), V4_CHANNEL);
    assert.equal(selectChannelProtocol(['v3.channel.k8s.io', 'channel.k8s.io']), undefined);
  });

  it('reads resize messages as kubectl sends them', () => {
    assert.deepEqual(parseTerminalSize(Buffer.from('{"Width":120,"Height":40}')), { cols: 120, rows: 40 });
    assert.equal(parseTerminalSize('{"Width":-1,"Height":40}'), undefined);
    assert.equal(parseTerminalSize('{"width":80}'), undefined);
    assert.equal(parseTerminalSize('not json'), undefined);
  });
});
