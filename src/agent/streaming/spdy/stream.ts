// One SPDY stream as a Node Duplex: what the peer sends arrives on the readable side (ending at
// the peer's FIN), writes become DATA frames, end() sends FIN. SPDY streams half-close, which is
// what lets `kubectl port-forward` signal the end of a request body while still reading.

import { Duplex } from 'node:stream';
import type { HeaderMap } from './header-codec.js';
import { RstStatus } from './frames.js';

/** What a stream needs from its session. */
export interface StreamHost {
  sendReply(streamId: number, headers: Record<string, string>): void;
  sendData(streamId: number, data: Buffer, fin: boolean): Promise<void>;
  sendReset(streamId: number, status: number): void;
  /** The stream is finished both ways: the session forgets it. */
  forget(streamId: number): void;
  /** Inbound backpressure: a reader fell behind, or caught up again. */
  pauseInput(): void;
  resumeInput(): void;
}

export class SpdyStream extends Duplex {
  private replied = false;
  private localFin = false;
  private remoteFin = false;
  private ended = false;

  constructor(
    readonly id: number,
    readonly headers: HeaderMap,
    private readonly host: StreamHost,
  ) {
    super({ allowHalfOpen: true });
  }

  /** The first value of a header, by case-insensitive name. */
  header(name: string): string | undefined {
    return this.headers.get(name.toLowerCase())?.[0];
  }

  /** Accepts the stream (SYN_REPLY). Peers drop data on streams they have no reply for. */
  reply(headers: Record<string, string> = {}): void {
    if (this.replied || this.ended) return;
    this.replied = true;
    this.host.sendReply(this.id, headers);
  }

  /** Aborts the stream (RST_STREAM); nothing more is sent or received on it. */
  reset(status: number = RstStatus.Cancel): void {
    if (this.ended) return;
    this.finish();
    this.host.sendReset(this.id, status);
    this.destroy();
  }

  /** DATA from the peer. */
  receive(data: Buffer): void {
    if (this.remoteFin || this.ended) return;
    if (data.length > 0 && !this.push(data)) this.host.pauseInput();
  }

  /** The peer's FIN: it sends no more. */
  receiveFin(): void {
    if (this.remoteFin) return;
    this.remoteFin = true;
    this.push(null);
    if (this.localFin) this.finish();
  }

  /**
   * The peer's RST_STREAM, or the connection went away. Destroyed without an error: users
   * watch 'close', and an abandoned stream is no failure of ours.
   */
  abort(): void {
    if (this.ended) return;
    this.finish();
    this.destroy();
  }

  override _read(): void {
    this.host.resumeInput();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.ended) return callback(new Error(`SPDY stream ${this.id} is closed`));
    this.reply();
    this.host.sendData(this.id, chunk, false).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (this.ended) return callback();
    this.reply();
    this.host.sendData(this.id, Buffer.alloc(0), true).then(() => {
      this.localFin = true;
      if (this.remoteFin) this.finish();
      callback();
    }, callback);
  }

  override _destroy(error: Error | null, callback: (error: Error | null) => void): void {
    // Torn down before both sides finished: tell the peer, or its reader waits forever.
    if (!this.ended) {
      this.finish();
      this.host.sendReset(this.id, RstStatus.Cancel);
    }
    callback(error);
  }

  private finish(): void {
    this.ended = true;
    this.host.forget(this.id);
  }
}
