// For tests: the client end of a SPDY session, in memory or over a socket — what kubectl does,
// built from the same frame and header codecs.

import { FrameReader, encodeData, encodeSynStream, type Frame } from '../../../src/agent/streaming/spdy/frames.js';
import { HeaderCompressor, HeaderDecompressor, type HeaderMap } from '../../../src/agent/streaming/spdy/header-codec.js';
import { SpdySession, type SpdyTransport } from '../../../src/agent/streaming/spdy/session.js';
import { waitFor } from '../wait-for.js';

export type ReceivedFrame = Frame | { kind: 'syn_reply_headers'; streamId: number; headers: HeaderMap };

export class TestPeer {
  readonly frames: ReceivedFrame[] = [];
  private readonly reader = new FrameReader();
  private readonly compressor = new HeaderCompressor();
  private readonly decompressor = new HeaderDecompressor();
  private decoding: Promise<void> = Promise.resolve();
  private nextId = 1;

  constructor(private readonly send: (bytes: Buffer) => void) {}

  /** Bytes from the server. */
  receive(bytes: Buffer): void {
    for (const frame of this.reader.push(bytes)) {
      this.decoding = this.decoding.then(async () => {
        if (frame.kind === 'syn_reply') {
          this.frames.push({ kind: 'syn_reply_headers', streamId: frame.streamId, headers: await this.decompressor.decompress(frame.headerBlock) });
        } else {
          this.frames.push(frame);
        }
      });
    }
  }

  /** Opens a stream (SYN_STREAM) with the next client id, or the one given. */
  async open(headers: Record<string, string>, fin = false, id = this.nextId): Promise<number> {
    if (id === this.nextId) this.nextId += 2;
    this.send(encodeSynStream(id, await this.compressor.compress(headers), { fin }));
    return id;
  }

  data(streamId: number, data: string | Buffer, fin = false): void {
    this.send(encodeData(streamId, Buffer.from(data), fin));
  }

  raw(bytes: Buffer): void {
    this.send(bytes);
  }

  /** Everything the server sent on a stream so far. */
  dataOf(streamId: number): Buffer {
    return Buffer.concat(this.frames.flatMap((f) => (f.kind === 'data' && f.streamId === streamId ? [f.data] : [])));
  }

  finished(streamId: number): boolean {
    return this.frames.some((f) => f.kind === 'data' && f.streamId === streamId && (f.flags & 1) === 1);
  }

  /** Waits for `check` over the frames decoded so far; a timeout lists the frames' kinds. */
  until<T>(what: string, check: () => T | undefined | false, timeoutMs = 3000): Promise<T> {
    return waitFor(
      what,
      async () => {
        await this.decoding;
        const value = check();
        if (value) return value;
        throw new Error(`frames so far: ${JSON.stringify(this.frames.map((f) => f.kind))}`);
      },
      timeoutMs,
    );
  }

  close(): void {
    this.compressor.close();
    this.decompressor.close();
  }
}

/** A session and a peer joined in memory; `closed` tells whether the server ended the transport. */
export function memoryPair(): { session: SpdySession; peer: TestPeer; state: { closed: boolean; paused: boolean } } {
  const state = { closed: false, paused: false };
  let session: SpdySession | undefined;
  const peer = new TestPeer((bytes) => session?.receive(bytes));
  const transport: SpdyTransport = {
    write: (data) => {
      if (!state.closed) peer.receive(data);
      return true;
    },
    drained: async () => undefined,
    pause: () => void (state.paused = true),
    resume: () => void (state.paused = false),
    close: () => {
      state.closed = true;
      session?.transportClosed();
    },
  };
  session = new SpdySession(transport);
  return { session, peer, state };
}
