// Writes responses with name compression (RFC 1035 4.1.4), which dns-packet's encoder lacks:
// without it every record repeats its owner name in full, and a headless Service's SRV answer
// of ten endpoints outgrows even an EDNS0 datagram. Only the record types the server emits are
// written; decoding stays with dns-packet.
import type { Answer } from 'dns-packet';
import { trimDot } from './names.js';

const TYPE_CODES: Record<string, number> = { A: 1, CNAME: 5, SOA: 6, SRV: 33, OPT: 41 };
const CLASS_IN = 1;
/** A compression pointer has 14 bits of offset. */
const MAX_POINTER_OFFSET = 0x3fff;

export interface ResponseMessage {
  id: number;
  /** Every header flag and the rcode; the QR bit is added. */
  flags: number;
  question: { name: string; type: number; class: number };
  answers: readonly Answer[];
  authority: readonly Answer[];
  additionals: readonly Answer[];
}

class TooBig extends Error {}

/** The message on the wire, or undefined when it would exceed `maxBytes`. */
export function encodeResponse(message: ResponseMessage, maxBytes: number): Buffer | undefined {
  const writer = new MessageWriter(maxBytes);
  try {
    writer.u16(message.id);
    writer.u16(0x8000 | (message.flags & 0x7fff));
    writer.u16(1);
    writer.u16(message.answers.length);
    writer.u16(message.authority.length);
    writer.u16(message.additionals.length);
    writer.name(message.question.name, true);
    writer.u16(message.question.type);
    writer.u16(message.question.class);
    for (const record of [...message.answers, ...message.authority, ...message.additionals]) writer.record(record);
    return writer.done();
  } catch (error) {
    if (error instanceof TooBig) return undefined;
    throw error;
  }
}

class MessageWriter {
  private readonly buffer: Buffer;
  private offset = 0;
  /** Where each name suffix was first written, for pointers; spelled exactly, so echoes keep their case. */
  private readonly suffixes = new Map<string, number>();

  constructor(private readonly maxBytes: number) {
    this.buffer = Buffer.allocUnsafe(maxBytes);
  }

  done(): Buffer {
    return this.buffer.subarray(0, this.offset);
  }

  u8(value: number): void {
    this.room(1);
    this.buffer.writeUInt8(value, this.offset);
    this.offset += 1;
  }

  u16(value: number): void {
    this.room(2);
    this.buffer.writeUInt16BE(value, this.offset);
    this.offset += 2;
  }

  u32(value: number): void {
    this.room(4);
    this.buffer.writeUInt32BE(value >>> 0, this.offset);
    this.offset += 4;
  }

  /** `compress: false` writes the name whole (RFC 2782 forbids compressing SRV targets); later names may still point into it. */
  name(name: string, compress: boolean): void {
    const trimmed = trimDot(name);
    const labels = trimmed === '' ? [] : trimmed.split('.');
    for (let i = 0; i < labels.length; i++) {
      const suffix = labels.slice(i).join('.');
      const earlier = this.suffixes.get(suffix);
      if (compress && earlier !== undefined) {
        this.u16(0xc000 | earlier);
        return;
      }
      if (this.offset <= MAX_POINTER_OFFSET && earlier === undefined) this.suffixes.set(suffix, this.offset);
      const bytes = Buffer.from(labels[i]!, 'utf8');
      this.u8(bytes.length);
      this.room(bytes.length);
      bytes.copy(this.buffer, this.offset);
      this.offset += bytes.length;
    }
    this.u8(0);
  }

  record(record: Answer): void {
    if (record.type === 'OPT') {
      // RFC 6891: the OPT pseudo-record's class is the UDP size, its TTL the extended flags.
      this.u8(0);
      this.u16(TYPE_CODES.OPT!);
      this.u16(record.udpPayloadSize);
      this.u32(((record.extendedRcode & 0xff) << 24) | ((record.ednsVersion & 0xff) << 16) | (record.flags & 0xffff));
      this.u16(0);
      return;
    }
    const code = TYPE_CODES[record.type];
    if (code === undefined) throw new Error(`the DNS encoder does not write ${record.type} records`);
    this.name(record.name, true);
    this.u16(code);
    this.u16(CLASS_IN);
    this.u32(record.ttl ?? 0);
    const lengthAt = this.offset;
    this.u16(0);
    const start = this.offset;
    this.rdata(record);
    this.buffer.writeUInt16BE(this.offset - start, lengthAt);
  }

  private rdata(record: Answer): void {
    switch (record.type) {
      case 'A':
        for (const octet of record.data.split('.')) this.u8(Number(octet));
        return;
      case 'CNAME':
        this.name(record.data, true);
        return;
      case 'SRV':
        this.u16(record.data.priority ?? 0);
        this.u16(record.data.weight ?? 0);
        this.u16(record.data.port);
        this.name(record.data.target, false);
        return;
      case 'SOA':
        this.name(record.data.mname, true);
        this.name(record.data.rname, true);
        this.u32(record.data.serial ?? 0);
        this.u32(record.data.refresh ?? 0);
        this.u32(record.data.retry ?? 0);
        this.u32(record.data.expire ?? 0);
        this.u32(record.data.minimum ?? 0);
        return;
      default:
        throw new Error(`the DNS encoder does not write ${record.type} records`);
    }
  }

  private room(bytes: number): void {
    if (this.offset + bytes > this.maxBytes) throw new TooBig();
  }
}
