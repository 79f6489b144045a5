// A minimal protocol buffers (proto3) encoder: enough to write the gnostic OpenAPI v2 messages
// that kubectl asks for (Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf).
// Default values (empty strings, false) are skipped, as proto3 encoders do.

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;

export class ProtoWriter {
  private readonly parts: Buffer[] = [];

  private varint(value: number): void {
    const bytes: number[] = [];
    let rest = value;
    while (rest >= 0x80) {
      bytes.push((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    bytes.push(rest);
    this.parts.push(Buffer.from(bytes));
  }

  private tag(field: number, wireType: number): void {
    this.varint(field * 8 + wireType);
  }

  private bytes(field: number, data: Buffer): void {
    this.tag(field, LENGTH_DELIMITED);
    this.varint(data.length);
    this.parts.push(data);
  }

  string(field: number, value: string | undefined): this {
    if (value) this.bytes(field, Buffer.from(value, 'utf8'));
    return this;
  }

  strings(field: number, values: readonly string[] | undefined): this {
    for (const value of values ?? []) this.bytes(field, Buffer.from(value, 'utf8'));
    return this;
  }

  bool(field: number, value: boolean | undefined): this {
    if (value) {
      this.tag(field, VARINT);
      this.varint(1);
    }
    return this;
  }

  double(field: number, value: number | undefined): this {
    if (value === undefined || value === 0) return this;
    const data = Buffer.alloc(8);
    data.writeDoubleLE(value);
    this.tag(field, FIXED64);
    this.parts.push(data);
    return this;
  }

  /** A nested message; `write` fills it. Always emitted, even when empty (a set oneof must be). */
  message(field: number, write: (writer: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    write(inner);
    this.bytes(field, inner.finish());
    return this;
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}
