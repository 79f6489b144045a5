import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { GoAwayStatus, RstStatus, encodeGoAway, encodePing, encodeRstStream } from './frames.js';
import type { SpdyStream } from './stream.js';
import { memoryPair } from '../../../../test/support/agent/spdy-peer.js';

describe('SPDY session', () => {
  it('accepts a stream, carries data both ways and half-closes each side', async () => {
    const { session, peer } = memoryPair();
    const streams: SpdyStream[] = [];
    session.on('stream', (s) => streams.push(s));
    const id = await peer.open({ streamtype: 'data', port: '80' });
    const stream = await peer.until('the stream', () => streams[0]);
    assert.equal(stream.id, id);
    assert.equal(stream.header('streamType'), 'data');
    stream.reply();
    const reply = await peer.until('SYN_REPLY', () => peer.frames.find((f) => f.kind === 'syn_reply_headers'));
    assert.deepEqual(reply, { kind: 'syn_reply_headers', streamId: id, headers: new Map() });

    const received: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => received.push(chunk));
    peer.data(id, 'request', true);
    await once(stream, 'end');
    assert.equal(Buffer.concat(received).toString(), 'request');
    assert.equal(session.openStreams, 1, 'still open for our side');

    stream.end('response');
    await peer.until('FIN', () => peer.finished(id));
    assert.equal(peer.dataOf(id).toString(), 'response');
    assert.equal(session.openStreams, 0);
    peer.close();
  });

  it('replies before the first data even when the handler writes at once', async () => {
    const { session, peer } = memoryPair();
    session.on('stream', (s) => s.end('hello'));
    const id = await peer.open({ a: 'b' });
    await peer.until('FIN', () => peer.finished(id));
    assert.deepEqual(peer.frames.map((f) => f.kind).slice(0, 2), ['syn_reply_headers', 'data']);
  });

  it("answers the client's pings and ignores answers to pings it never sent", async () => {
    const { peer } = memoryPair();
    peer.raw(encodePing(1));
    peer.raw(encodePing(2));
    peer.raw(encodePing(3));
    await peer.until('pongs', () => peer.frames.filter((f) => f.kind === 'ping').length === 2);
    assert.deepEqual(
      peer.frames.map((f) => (f.kind === 'ping' ? f.id : -1)),
      [1, 3],
    );
  });

  it('refuses streams with even or reused ids, and streams nobody handles', async () => {
    const { session, peer } = memoryPair();
    await peer.open({}); // id 1 with no listener yet
    await peer.until('refusal', () => peer.frames.some((f) => f.kind === 'rst_stream' && f.streamId === 1 && f.status === RstStatus.RefusedStream));
    session.on('stream', () => undefined);
    await peer.open({}, false, 2);
    await peer.until('protocol error', () => peer.frames.some((f) => f.kind === 'rst_stream' && f.streamId === 2 && f.status === RstStatus.ProtocolError));
    await peer.open({}, false, 1);
    await peer.until('reuse refused', () => peer.frames.filter((f) => f.kind === 'rst_stream' && f.streamId === 1).length === 2);
  });

  it('ends a stream the client resets', async () => {
    const { session, peer } = memoryPair();
    const streams: SpdyStream[] = [];
    session.on('stream', (s) => streams.push(s));
    const id = await peer.open({});
    const stream = await peer.until('the stream', () => streams[0]);
    const closed = once(stream, 'close');
    peer.raw(encodeRstStream(id, RstStatus.Cancel));
    await closed;
    assert.equal(session.openStreams, 0);
  });

  it('goes away after the client does, once its streams are done', async () => {
    const { session, peer, state } = memoryPair();
    const streams: SpdyStream[] = [];
    session.on('stream', (s) => streams.push(s));
    const id = await peer.open({}, true);
    const stream = await peer.until('the stream', () => streams[0]);
    peer.raw(encodeGoAway(id, GoAwayStatus.Ok));
    await peer.until('the GOAWAY is read', () => true);
    assert.equal(state.closed, false, 'a stream is still open');
    stream.resume();
    stream.end();
    await peer.until('GOAWAY', () => peer.frames.some((f) => f.kind === 'goaway'));
    assert.equal(state.closed, true);
  });

  it('aborts every stream when the transport closes', async () => {
    const { session, peer } = memoryPair();
    const streams: SpdyStream[] = [];
    session.on('stream', (s) => streams.push(s));
    await peer.open({});
    const stream = await peer.until('the stream', () => streams[0]);
    const closed = once(stream, 'close');
    session.transportClosed();
    await closed;
  });

  it('reports garbage as a protocol error and goes away', async () => {
    const { session, peer, state } = memoryPair();
    const errors: Error[] = [];
    session.on('error', (e) => errors.push(e));
    peer.raw(Buffer.from('8002000600000004' + '00000001', 'hex')); // SPDY/2
    await peer.until('GOAWAY', () => peer.frames.find((f) => f.kind === 'goaway'));
    assert.match(errors[0]?.message ?? '', /unsupported SPDY version 2/);
    assert.equal(state.closed, true);
  });

  it('pauses the transport while a reader is behind', async () => {
    const { session, peer, state } = memoryPair();
    const streams: SpdyStream[] = [];
    session.on('stream', (s) => streams.push(s));
    const id = await peer.open({});
    const stream = await peer.until('the stream', () => streams[0]);
    peer.data(id, Buffer.alloc(64 * 1024));
    await peer.until('paused', () => state.paused);
    stream.resume();
    await peer.until('resumed', () => !state.paused);
  });
});
