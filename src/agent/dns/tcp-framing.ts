// RFC 1035 4.2.2: over TCP each message is prefixed by its length in two bytes, and a client may
// send several before reading any answer (RFC 7766 6.2.1).

/** Shorter than a header cannot be a query; the sender is not speaking DNS. */
const MIN_MESSAGE_BYTES = 12;

export class FramingError extends Error {}

/**
 * Splits a byte stream into messages. At most one incomplete message is held (64 KiB and two
 * bytes), so a client cannot grow the buffer by sending without end.
 */
export class TcpFramer {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Buffer[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const messages: Buffer[] = [];
    let offset = 0;
    while (this.pending.length - offset >= 2) {
      const length = this.pending.readUInt16BE(offset);
      if (length < MIN_MESSAGE_BYTES) throw new FramingError(`a ${length}-byte message cannot be a DNS query`);
      if (this.pending.length - offset - 2 < length) break;
      messages.push(this.pending.subarray(offset + 2, offset + 2 + length));
      offset += 2 + length;
    }
    // Copied so the rest does not keep the whole chunk alive.
    this.pending = offset === 0 ? this.pending : Buffer.from(this.pending.subarray(offset));
    return messages;
  }
}
