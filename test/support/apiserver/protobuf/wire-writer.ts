// A minimal protobuf writer for tests: builds messages field by field so decoder tests can state
// exactly which bytes they feed in. Not used by the server.
import { MAGIC } from '../../../../src/apiserver/protobuf/envelope.js';

export type Bytes = Uint8Array;

export function varint(value: bigint | number): Bytes {
  let rest = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    out.push(rest === 0n ? low : low | 0x80);
  } while (rest !== 0n);
  return Uint8Array.from(out);
}

export const concat = (...parts: Bytes[]): Bytes => Uint8Array.from(parts.flatMap((part) => [...part]));

export const tag = (field: number, wireType: number): Bytes => varint((field << 3) | wireType);

export const int = (field: number, value: bigint | number): Bytes => concat(tag(field, 0), varint(value));

export const bytes = (field: number, value: Bytes): Bytes => concat(tag(field, 2), varint(value.length), value);

export const str = (field: number, value: string): Bytes => bytes(field, new TextEncoder().encode(value));

export const msg = (field: number, ...parts: Bytes[]): Bytes => bytes(field, concat(...parts));

export const entry = (field: number, key: string, value: Bytes): Bytes => msg(field, str(1, key), value);

export function fixed64(field: number, value: number): Bytes {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setFloat64(0, value, true);
  return concat(tag(field, 1), out);
}

export const fixed32 = (field: number): Bytes => concat(tag(field, 5), Uint8Array.of(1, 2, 3, 4));

/** A complete request body: magic prefix and runtime.Unknown around the object's message. */
export const envelope = (apiVersion: string, kind: string, raw: Bytes, ...extra: Bytes[]): Bytes =>
  concat(MAGIC, msg(1, str(1, apiVersion), str(2, kind)), bytes(2, raw), ...extra);
