// The server end of a SPDY/3.1 connection, as far as Kubernetes clients use it: the client opens
// streams (SYN_STREAM, odd ids), the server accepts them (SYN_REPLY) and both sides send DATA and
// FIN; PINGs are answered; GOAWAY ends the session. Flow control (WINDOW_UPDATE, SETTINGS) is
// ignored, as the Go implementation Kubernetes clients use (moby/spdystream) ignores it.
//
// The session works over any byte transport: a raw upgraded socket, or the binary messages of a
// WebSocket tunnel (KEP-4006's `SPDY/3.1+portforward.k8s.io`), which carry frames split anyhow.

import { EventEmitter } from 'node:events';
import {
  FLAG_FIN,
  FrameReader,
  GoAwayStatus,
  MAX_FRAME_PAYLOAD,
  RstStatus,
  encodeData,
  encodeGoAway,
  encodePing,
  encodeRstStream,
  encodeSynReply,
  type Frame,
} from './frames.js';
import { HeaderCompressor, HeaderDecompressor } from './header-codec.js';
import { SpdyStream, type StreamHost } from './stream.js';

export interface SpdyTransport {
  /** Sends bytes; false when the transport's buffer is full. */
  write(data: Buffer): boolean;
  /** Resolves when a full buffer has emptied (at once when it is not full). */
  drained(): Promise<void>;
  pause(): void;
  resume(): void;
  /** Ends the connection. */
  close(): void;
}

interface SessionEvents {
  stream: [SpdyStream];
  /** A protocol error; the session is closing. */
  error: [Error];
  close: [];
}

export class SpdySession extends EventEmitter<SessionEvents> implements StreamHost {
  private readonly reader = new FrameReader();
  private readonly compressor = new HeaderCompressor();
  private readonly decompressor = new HeaderDecompressor();
  private readonly streams = new Map<number, SpdyStream>();
  private inbound: Promise<void> = Promise.resolve();
  private outbound: Promise<void> = Promise.resolve();
  private lastStreamId = 0;
  private paused = false;
  private goingAway = false;
  private closing = false;
  private closed = false;

  constructor(private readonly transport: SpdyTransport) {
    super();
  }

  /** Bytes read from the transport. */
  receive(chunk: Buffer): void {
    if (this.closed) return;
    let frames: Frame[];
    try {
      frames = this.reader.push(chunk);
    } catch (error) {
      this.fail(error);
      return;
    }
    for (const frame of frames) {
      this.inbound = this.inbound.then(() => this.handle(frame)).catch((error: unknown) => this.fail(error));
    }
  }

  /** The transport has closed: every stream ends with it. */
  transportClosed(): void {
    if (this.closed) return;
    this.closed = true;
    for (const stream of [...this.streams.values()]) stream.abort();
    this.streams.clear();
    this.compressor.close();
    this.decompressor.close();
    this.emit('close');
  }

  /** Ends the session politely: GOAWAY, then the connection closes. */
  close(status: number = GoAwayStatus.Ok): void {
    if (this.closed || this.closing) return;
    this.closing = true;
    this.goingAway = true;
    this.enqueue(async () => {
      this.transport.write(encodeGoAway(this.lastStreamId, status));
      this.transport.close();
    });
  }

  get openStreams(): number {
    return this.streams.size;
  }

  private async handle(frame: Frame): Promise<void> {
    if (this.closed) return;
    switch (frame.kind) {
      case 'syn_stream': {
        // Every header block goes through the inflater, even of a refused stream: the zlib stream
        // is shared by the whole connection.
        const headers = await this.decompressor.decompress(frame.headerBlock);
        return this.openStream(frame.streamId, headers, (frame.flags & FLAG_FIN) !== 0);
      }
      case 'syn_reply':
      case 'headers':
        await this.decompressor.decompress(frame.headerBlock);
        return;
      case 'data': {
        const stream = this.streams.get(frame.streamId);
        if (!stream) return; // late frames of a stream already closed or reset
        stream.receive(frame.data);
        if ((frame.flags & FLAG_FIN) !== 0) stream.receiveFin();
        return;
      }
      case 'rst_stream':
        this.streams.get(frame.streamId)?.abort();
        return;
      case 'ping':
        // Odd ids are the client's; even ones would answer pings of ours, and we send none.
        if (frame.id % 2 === 1) this.enqueue(async () => void this.transport.write(encodePing(frame.id)));
        return;
      case 'goaway':
        this.goingAway = true;
        if (this.streams.size === 0) this.close();
        return;
      default:
        return; // SETTINGS, WINDOW_UPDATE and unknown control frames need nothing from us
    }
  }

  private openStream(id: number, headers: Map<string, string[]>, fin: boolean): void {
    if (id % 2 === 0 || id <= this.lastStreamId) {
      this.sendReset(id, RstStatus.ProtocolError);
      return;
    }
    this.lastStreamId = id;
    if (this.goingAway || this.listenerCount('stream') === 0) {
      this.sendReset(id, RstStatus.RefusedStream);
      return;
    }
    const stream = new SpdyStream(id, headers, this);
    this.streams.set(id, stream);
    if (fin) stream.receiveFin();
    this.emit('stream', stream);
  }

  sendReply(streamId: number, headers: Record<string, string>): void {
    const block = this.compressor.compress(headers);
    this.enqueue(async () => void this.transport.write(encodeSynReply(streamId, await block)));
  }

  sendData(streamId: number, data: Buffer, fin: boolean): Promise<void> {
    return this.enqueue(async () => {
      let offset = 0;
      do {
        const piece = data.subarray(offset, offset + MAX_FRAME_PAYLOAD);
        offset += piece.length;
        if (!this.transport.write(encodeData(streamId, piece, fin && offset >= data.length))) await this.transport.drained();
      } while (offset < data.length);
    });
  }

  sendReset(streamId: number, status: number): void {
    this.enqueue(async () => void this.transport.write(encodeRstStream(streamId, status)));
  }

  forget(streamId: number): void {
    this.streams.delete(streamId);
    if (this.goingAway && this.streams.size === 0) this.close();
  }

  // One transport carries every stream, so a slow reader pauses them all until it catches up.
  pauseInput(): void {
    if (this.paused) return;
    this.paused = true;
    this.transport.pause();
  }

  resumeInput(): void {
    if (!this.paused) return;
    this.paused = false;
    this.transport.resume();
  }

  /** Frames leave in the order they were queued, after any header compression before them. */
  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.outbound.then(() => (this.closed ? undefined : task()));
    this.outbound = run.catch(() => undefined);
    return run;
  }

  private fail(error: unknown): void {
    if (this.closed) return;
    const message = error instanceof Error ? error.message : String(error);
    if (this.listenerCount('error') > 0) this.emit('error', new Error(`SPDY session: ${message}`));
    this.close(GoAwayStatus.ProtocolError);
  }
}
