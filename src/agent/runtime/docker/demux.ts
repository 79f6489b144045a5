// Docker multiplexes stdout and stderr of a container without a TTY into one byte
// stream of frames: an 8-byte header (byte 0: 0 stdin, 1 stdout, 2 stderr; bytes
// 4-7: big-endian payload length) followed by the payload. Frames are cut across
// socket reads at arbitrary points, so the parser keeps what it has not consumed.

import { PassThrough, Transform, type Readable } from 'node:stream';

export type StreamName = 'stdout' | 'stderr';

export interface Frame {
  stream: StreamName;
  payload: Buffer;
}

const HEADER = 8;

export class FrameParser {
  private buf: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Frame[] {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    const frames: Frame[] = [];
    while (this.buf.length >= HEADER) {
      const size = this.buf.readUInt32BE(4);
      if (this.buf.length < HEADER + size) break;
      // Stream 0 (stdin) is only echoed back with a TTY, which is never multiplexed.
      const stream: StreamName = this.buf[0] === 2 ? 'stderr' : 'stdout';
      frames.push({ stream, payload: this.buf.subarray(HEADER, HEADER + size) });
      this.buf = this.buf.subarray(HEADER + size);
    }
    return frames;
  }

  /** Bytes of an incomplete frame still held. */
  get pending(): number {
    return this.buf.length;
  }
}

/** One stream of both outputs' payloads, in the order Docker sent them (logs). */
export function demuxMerged(source: Readable): Readable {
  const parser = new FrameParser();
  const out = new Transform({
    transform(chunk: Buffer, _enc, done) {
      for (const frame of parser.push(chunk)) this.push(frame.payload);
      done();
    },
  });
  forward(source, out);
  return source.pipe(out);
}

/** Separate stdout and stderr streams (exec, attach), with back-pressure on the source. */
export function demuxSplit(source: Readable): { stdout: PassThrough; stderr: PassThrough } {
  const parser = new FrameParser();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const resume = (): void => {
    source.resume();
  };
  source.on('data', (chunk: Buffer) => {
    for (const frame of parser.push(chunk)) {
      const target = frame.stream === 'stderr' ? stderr : stdout;
      // A reader that gave up on one stream must not stall the other.
      if (target.destroyed) continue;
      if (!target.write(frame.payload)) {
        source.pause();
        target.once('drain', resume);
      }
    }
  });
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    stdout.end();
    stderr.end();
  };
  source.once('end', finish);
  source.once('close', finish);
  source.once('error', (err) => {
    stdout.destroy(err);
    stderr.destroy(err);
  });
  return { stdout, stderr };
}

/** pipe() does not carry errors forward; a broken engine connection must reach the reader. */
export function forward(source: Readable, target: Readable): void {
  source.once('error', (err) => target.destroy(err));
  target.once('close', () => {
    if (!source.destroyed) source.destroy();
  });
}
