// SPDY/3.1 framing: the binary frame layout, an incremental reader for a byte stream, and
// encoders for the frames a server sends. Header blocks stay compressed here; header-codec.ts
// turns them into name/value lists.
//
//   control frame: |1| version(15) | type(16) | flags(8) | length(24) | payload
//   data frame:    |0| stream id(31)           | flags(8) | length(24) | payload

export const SPDY_VERSION = 3;
export const FLAG_FIN = 0x01;
export const FLAG_UNIDIRECTIONAL = 0x02;
/** A frame's length field is 24 bits. */
export const MAX_FRAME_PAYLOAD = 0xffffff;
const HEADER_BYTES = 8;

export const ControlType = {
  SynStream: 1,
  SynReply: 2,
  RstStream: 3,
  Settings: 4,
  Ping: 6,
  GoAway: 7,
  Headers: 8,
  WindowUpdate: 9,
} as const;

/** RST_STREAM status codes. */
export const RstStatus = { ProtocolError: 1, InvalidStream: 2, RefusedStream: 3, Cancel: 5, InternalError: 6 } as const;
/** GOAWAY status codes. */
export const GoAwayStatus = { Ok: 0, ProtocolError: 1, InternalError: 2 } as const;

export type Frame =
  | { kind: 'data'; streamId: number; flags: number; data: Buffer }
  | { kind: 'syn_stream'; streamId: number; associatedId: number; priority: number; flags: number; headerBlock: Buffer }
  | { kind: 'syn_reply'; streamId: number; flags: number; headerBlock: Buffer }
  | { kind: 'headers'; streamId: number; flags: number; headerBlock: Buffer }
  | { kind: 'rst_stream'; streamId: number; status: number }
  | { kind: 'settings'; flags: number; entries: Array<{ flags: number; id: number; value: number }> }
  | { kind: 'ping'; id: number }
  | { kind: 'goaway'; lastGoodStreamId: number; status: number }
  | { kind: 'window_update'; streamId: number; delta: number }
  | { kind: 'unknown'; type: number; flags: number; payload: Buffer };

export class SpdyProtocolError extends Error {
  override readonly name = 'SpdyProtocolError';
}

const STREAM_ID_MASK = 0x7fffffff;

function need(payload: Buffer, bytes: number, what: string): void {
  if (payload.length < bytes) throw new SpdyProtocolError(`${what} frame too short (${payload.length} bytes)`);
}

function parseControl(type: number, version: number, flags: number, payload: Buffer): Frame {
  if (version !== SPDY_VERSION) throw new SpdyProtocolError(`unsupported SPDY version ${version}`);
  switch (type) {
    case ControlType.SynStream:
      need(payload, 10, 'SYN_STREAM');
      return {
        kind: 'syn_stream',
        streamId: payload.readUInt32BE(0) & STREAM_ID_MASK,
        associatedId: payload.readUInt32BE(4) & STREAM_ID_MASK,
        priority: payload[8]! >> 5,
        flags,
        headerBlock: payload.subarray(10),
      };
    case ControlType.SynReply:
    case ControlType.Headers:
      need(payload, 4, type === ControlType.SynReply ? 'SYN_REPLY' : 'HEADERS');
      return {
        kind: type === ControlType.SynReply ? 'syn_reply' : 'headers',
        streamId: payload.readUInt32BE(0) & STREAM_ID_MASK,
        flags,
        headerBlock: payload.subarray(4),
      };
    case ControlType.RstStream:
      need(payload, 8, 'RST_STREAM');
      return { kind: 'rst_stream', streamId: payload.readUInt32BE(0) & STREAM_ID_MASK, status: payload.readUInt32BE(4) };
    case ControlType.Settings:
      return { kind: 'settings', flags, entries: parseSettings(payload) };
    case ControlType.Ping:
      need(payload, 4, 'PING');
      return { kind: 'ping', id: payload.readUInt32BE(0) };
    case ControlType.GoAway:
      need(payload, 8, 'GOAWAY');
      return { kind: 'goaway', lastGoodStreamId: payload.readUInt32BE(0) & STREAM_ID_MASK, status: payload.readUInt32BE(4) };
    case ControlType.WindowUpdate:
      need(payload, 8, 'WINDOW_UPDATE');
      return { kind: 'window_update', streamId: payload.readUInt32BE(0) & STREAM_ID_MASK, delta: payload.readUInt32BE(4) & STREAM_ID_MASK };
    default:
      // SPDY says to ignore control frames of unknown types.
      return { kind: 'unknown', type, flags, payload };
  }
}

function parseSettings(payload: Buffer): Array<{ flags: number; id: number; value: number }> {
  need(payload, 4, 'SETTINGS');
  const count = payload.readUInt32BE(0);
  need(payload, 4 + count * 8, 'SETTINGS');
  const entries = [];
  for (let i = 0; i < count; i++) {
    const at = 4 + i * 8;
    entries.push({ flags: payload[at]!, id: payload.readUIntBE(at + 1, 3), value: payload.readUInt32BE(at + 4) });
  }
  return entries;
}

/** Collects bytes from a stream transport and yields whole frames as they complete. */
export class FrameReader {
  private buffer: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Frame[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const frames: Frame[] = [];
    while (this.buffer.length >= HEADER_BYTES) {
      const length = this.buffer.readUIntBE(5, 3);
      if (this.buffer.length < HEADER_BYTES + length) break;
      const frame = this.buffer.subarray(0, HEADER_BYTES + length);
      this.buffer = this.buffer.subarray(HEADER_BYTES + length);
      frames.push(parseFrame(frame));
    }
    return frames;
  }

  /** Bytes of an incomplete frame still waiting for the rest. */
  get pending(): number {
    return this.buffer.length;
  }
}

/** Parses one complete frame (header and payload). */
export function parseFrame(frame: Buffer): Frame {
  need(frame, HEADER_BYTES, 'a');
  const first = frame.readUInt32BE(0);
  const flags = frame[4]!;
  const payload = frame.subarray(HEADER_BYTES, HEADER_BYTES + frame.readUIntBE(5, 3));
  if ((first & 0x80000000) === 0) return { kind: 'data', streamId: first & STREAM_ID_MASK, flags, data: payload };
  return parseControl(first & 0xffff, (first >>> 16) & 0x7fff, flags, payload);
}

function control(type: number, flags: number, payload: Buffer): Buffer {
  if (payload.length > MAX_FRAME_PAYLOAD) throw new SpdyProtocolError(`control frame payload too large (${payload.length} bytes)`);
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32BE((0x8000 | SPDY_VERSION) * 0x10000 + type);
  header[4] = flags;
  header.writeUIntBE(payload.length, 5, 3);
  return Buffer.concat([header, payload]);
}

function words(...values: number[]): Buffer {
  const out = Buffer.alloc(values.length * 4);
  values.forEach((value, i) => out.writeUInt32BE(value >>> 0, i * 4));
  return out;
}

/** One DATA frame; callers split payloads larger than MAX_FRAME_PAYLOAD. */
export function encodeData(streamId: number, data: Buffer, fin = false): Buffer {
  if (data.length > MAX_FRAME_PAYLOAD) throw new SpdyProtocolError(`data frame payload too large (${data.length} bytes)`);
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32BE(streamId & STREAM_ID_MASK);
  header[4] = fin ? FLAG_FIN : 0;
  header.writeUIntBE(data.length, 5, 3);
  return Buffer.concat([header, data]);
}

export function encodeSynStream(streamId: number, headerBlock: Buffer, opts: { fin?: boolean; priority?: number; associatedId?: number } = {}): Buffer {
  const fixed = Buffer.alloc(10);
  fixed.writeUInt32BE(streamId & STREAM_ID_MASK, 0);
  fixed.writeUInt32BE((opts.associatedId ?? 0) & STREAM_ID_MASK, 4);
  fixed[8] = ((opts.priority ?? 0) & 0x7) << 5;
  return control(ControlType.SynStream, opts.fin ? FLAG_FIN : 0, Buffer.concat([fixed, headerBlock]));
}

export function encodeSynReply(streamId: number, headerBlock: Buffer, fin = false): Buffer {
  return control(ControlType.SynReply, fin ? FLAG_FIN : 0, Buffer.concat([words(streamId & STREAM_ID_MASK), headerBlock]));
}

export function encodeRstStream(streamId: number, status: number): Buffer {
  return control(ControlType.RstStream, 0, words(streamId & STREAM_ID_MASK, status));
}

export function encodePing(id: number): Buffer {
  return control(ControlType.Ping, 0, words(id));
}

export function encodeGoAway(lastGoodStreamId: number, status: number): Buffer {
  return control(ControlType.GoAway, 0, words(lastGoodStreamId & STREAM_ID_MASK, status));
}

export function encodeSettings(entries: Array<{ flags?: number; id: number; value: number }>): Buffer {
  const payload = Buffer.alloc(4 + entries.length * 8);
  payload.writeUInt32BE(entries.length, 0);
  entries.forEach((entry, i) => {
    payload[4 + i * 8] = entry.flags ?? 0;
    payload.writeUIntBE(entry.id, 5 + i * 8, 3);
    payload.writeUInt32BE(entry.value >>> 0, 8 + i * 8);
  });
  return control(ControlType.Settings, 0, payload);
}

export function encodeWindowUpdate(streamId: number, delta: number): Buffer {
  return control(ControlType.WindowUpdate, 0, words(streamId & STREAM_ID_MASK, delta & STREAM_ID_MASK));
}
