// RFC 1035 4.2.2: over TCP each message is prefixed by its length in two bytes, and a client may
// send several before reading any answer (RFC 7766 6.2.1).

/** Shorter than a header cannot be a query; the sender is not speaking DNS. */
const MIN_MESSAGE_BYTES = 12;

export class FramingError extends Error {}

/**
 * Splits a byte stream into messages, handed out one at a time so that the reader can stop
 * taking them (and stop reading the socket) while its answers go unread.
 */
export class TcpFramer {
  private pending: Buffer = Buffer.alloc(0);
  private offset = 0;

  push(chunk: Buffer): void {
    const rest = this.pending.subarray(this.offset);
    this.pending = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
    this.offset = 0;
  }

  /** The next whole message, or undefined until more bytes come. */
  next(): Buffer | undefined {
    if (this.pending.length - this.offset < 2) return undefined;
    const length = this.pending.readUInt16BE(this.offset);
    if (length < MIN_MESSAGE_BYTES) throw new FramingError(`a ${length}-byte message cannot be a DNS query`);
    if (this.pending.length - this.offset - 2 < length) return undefined;
    const message = this.pending.subarray(this.offset + 2, this.offset + 2 + length);
    this.offset += 2 + length;
    return message;
  }

  /** Bytes received and not yet handed out. */
  get buffered(): number {
    return this.pending.length - this.offset;
  }
}
