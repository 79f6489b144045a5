// Protobuf wire-format reader (https://protobuf.dev/programming-guides/encoding/). Kubernetes
// encodes integers as plain (not zigzag) varints, so no sint decoding is needed; negative int32
// and int64 values arrive as 10-byte two's-complement varints.
import { malformed } from './errors.js';

export const WireType = { varint: 0, fixed64: 1, lengthDelimited: 2, startGroup: 3, endGroup: 4, fixed32: 5 } as const;

export interface Tag {
  readonly field: number;
  readonly wireType: number;
}

const MAX_VARINT_BYTES = 10;

export class WireReader {
  private pos: number;

  constructor(
    private readonly buf: Uint8Array,
    start = 0,
    private readonly end = buf.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  get offset(): number {
    return this.pos;
  }

  readTag(): Tag {
    const at = this.pos;
    const key = this.readVarint();
    const field = Number(key >> 3n);
    const wireType = Number(key & 7n);
    if (field < 1 || field > 0x1fffffff) throw malformed(`invalid field number ${field} at byte ${at}`);
    return { field, wireType };
  }

  /** An unsigned varint of up to 64 bits. */
  readVarint(): bigint {
    const first = this.byteAt(this.pos);
    if (first < 0x80) {
      this.pos++;
      return BigInt(first);
    }
    let result = 0n;
    for (let i = 0; i < MAX_VARINT_BYTES; i++) {
      const byte = this.byteAt(this.pos + i);
      result |= BigInt(byte & 0x7f) << BigInt(7 * i);
      if (byte < 0x80) {
        this.pos += i + 1;
        return BigInt.asUintN(64, result);
      }
    }
    throw malformed(`varint at byte ${this.pos} is longer than ${MAX_VARINT_BYTES} bytes`);
  }

  readInt32(): number {
    return Number(BigInt.asIntN(32, this.readVarint()));
  }

  readInt64(): number {
    const at = this.pos;
    const value = BigInt.asIntN(64, this.readVarint());
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw malformed(`int64 value ${value} at byte ${at} is outside the range JSON numbers hold exactly`);
    }
    return Number(value);
  }

  readBool(): boolean {
    return this.readVarint() !== 0n;
  }

  readDouble(): number {
    const view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    const value = view.getFloat64(this.take(8), true);
    return value;
  }

  /** The payload of a length-delimited field, as a view into the buffer. */
  readBytes(): Uint8Array {
    const at = this.pos;
    const length = this.readVarint();
    if (length > BigInt(this.end - this.pos)) {
      throw malformed(`length ${length} at byte ${at} runs past the end of its message (${this.end - this.pos} bytes left)`);
    }
    const start = this.take(Number(length));
    return this.buf.subarray(start, start + Number(length));
  }

  /** Skips the value of a field this reader's caller does not know. */
  skip(tag: Tag): void {
    switch (tag.wireType) {
      case WireType.varint:
        this.readVarint();
        return;
      case WireType.fixed64:
        this.take(8);
        return;
      case WireType.lengthDelimited:
        this.readBytes();
        return;
      case WireType.fixed32:
        this.take(4);
        return;
      case WireType.startGroup:
        this.skipGroup(tag.field);
        return;
      default:
        throw malformed(`unexpected wire type ${tag.wireType} for field ${tag.field} at byte ${this.pos}`);
    }
  }

  // Groups are a deprecated proto2 encoding Kubernetes never writes; skipping them keeps an
  // unknown field from failing the whole body.
  private skipGroup(field: number): void {
    for (;;) {
      if (this.done) throw malformed(`group for field ${field} is not closed`);
      const inner = this.readTag();
      if (inner.wireType === WireType.endGroup) {
        if (inner.field !== field) throw malformed(`group for field ${field} closed by field ${inner.field}`);
        return;
      }
      this.skip(inner);
    }
  }

  private take(count: number): number {
    if (this.pos + count > this.end) {
      throw malformed(`truncated input: needed ${count} bytes at byte ${this.pos}, only ${this.end - this.pos} left`);
    }
    const start = this.pos;
    this.pos += count;
    return start;
  }

  private byteAt(index: number): number {
    if (index >= this.end) throw malformed(`truncated varint at byte ${index}`);
    return this.buf[index]!;
  }
}
