// SPDY/3 header blocks: a count of name/value pairs, each a 32-bit length and its bytes, names in
// lower case, several values of one name joined by NUL. Each direction of a connection compresses
// its blocks with ONE zlib stream primed with the SPDY dictionary and sync-flushed after every
// block, so blocks can only be decoded in order and by the same inflater.
//
// Node's zlib streams are asynchronous; output is taken with read() once the flush callback has
// run (all of a flush's output has been pushed by then), never from 'data' events, whose timing
// relative to the callback is not guaranteed.

import { constants, createDeflate, createInflate, type Deflate, type Inflate, type ZlibOptions } from 'node:zlib';
import { SPDY3_DICTIONARY } from './dictionary.js';
import { SpdyProtocolError } from './frames.js';

/** Lower-case header name → values. */
export type HeaderMap = Map<string, string[]>;

/** A header block bigger than this is refused: real clients send a few dozen bytes. */
const MAX_HEADER_BLOCK = 256 * 1024;

export function encodeHeaderBlock(headers: Record<string, string | string[]> | HeaderMap): Buffer {
  const entries = headers instanceof Map ? [...headers.entries()] : Object.entries(headers);
  const parts: Buffer[] = [u32(entries.length)];
  for (const [name, value] of entries) {
    const nameBytes = Buffer.from(name.toLowerCase(), 'utf8');
    const valueBytes = Buffer.from(Array.isArray(value) ? value.join('\0') : value, 'utf8');
    parts.push(u32(nameBytes.length), nameBytes, u32(valueBytes.length), valueBytes);
  }
  return Buffer.concat(parts);
}

export function decodeHeaderBlock(block: Buffer): HeaderMap {
  const headers: HeaderMap = new Map();
  let at = 0;
  const take = (): Buffer => {
    if (at + 4 > block.length) throw new SpdyProtocolError('truncated header block');
    const length = block.readUInt32BE(at);
    at += 4;
    if (at + length > block.length) throw new SpdyProtocolError('truncated header block');
    const bytes = block.subarray(at, at + length);
    at += length;
    return bytes;
  };
  if (block.length < 4) throw new SpdyProtocolError('truncated header block');
  const count = block.readUInt32BE(0);
  at = 4;
  for (let i = 0; i < count; i++) {
    const name = take().toString('utf8');
    const values = take().toString('utf8').split('\0');
    if (name === '') throw new SpdyProtocolError('empty header name');
    headers.set(name.toLowerCase(), [...(headers.get(name.toLowerCase()) ?? []), ...values]);
  }
  return headers;
}

function u32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value);
  return out;
}

// zlib streams are Transforms and take their options; the typings leave this one out. A block's
// output must fit below the mark, or the flush would wait for a read that only follows it; the
// mark is a threshold, not an allocation, so it is generous (a frame holds at most 16 MiB).
const TRANSFORM_OPTIONS: { readableHighWaterMark: number } = { readableHighWaterMark: 64 * 1024 * 1024 };

function zlibOptions(extra: ZlibOptions): ZlibOptions {
  return { ...TRANSFORM_OPTIONS, ...extra, dictionary: SPDY3_DICTIONARY };
}

/** Runs one block through a zlib stream and collects what the sync flush produced. */
function flushThrough(stream: Deflate | Inflate, input: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(new SpdyProtocolError(`header block: ${error.message}`));
    stream.once('error', onError);
    stream.write(input);
    stream.flush(constants.Z_SYNC_FLUSH, () => {
      stream.off('error', onError);
      const chunks: Buffer[] = [];
      for (let chunk = stream.read() as Buffer | null; chunk !== null; chunk = stream.read() as Buffer | null) chunks.push(chunk);
      resolve(Buffer.concat(chunks));
    });
  });
}

/** Serialises calls: blocks must pass through the shared zlib stream one at a time, in order. */
class Serial {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

export class HeaderCompressor {
  private readonly deflate = createDeflate(zlibOptions({ level: constants.Z_BEST_COMPRESSION }));
  private readonly serial = new Serial();

  constructor() {
    // Errors are reported through the pending call; a stream error must never go unhandled.
    this.deflate.on('error', () => undefined);
  }

  compress(headers: Record<string, string | string[]> | HeaderMap): Promise<Buffer> {
    const block = encodeHeaderBlock(headers);
    return this.serial.run(() => flushThrough(this.deflate, block));
  }

  close(): void {
    this.deflate.destroy();
  }
}

export class HeaderDecompressor {
  private readonly inflate = createInflate(zlibOptions({}));
  private readonly serial = new Serial();

  constructor() {
    this.inflate.on('error', () => undefined);
  }

  async decompress(compressed: Buffer): Promise<HeaderMap> {
    const block = await this.serial.run(() => flushThrough(this.inflate, compressed));
    if (block.length > MAX_HEADER_BLOCK) throw new SpdyProtocolError(`header block too large (${block.length} bytes)`);
    return decodeHeaderBlock(block);
  }

  close(): void {
    this.inflate.destroy();
  }
}
