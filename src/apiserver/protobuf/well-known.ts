// JSON forms of the apimachinery types whose protobuf message differs from their JSON value.
import { metaTime } from '../../api/meta.js';
import { malformed } from './errors.js';
import { WireReader, WireType } from './wire.js';

type Shape = Readonly<Record<number, 'varint' | 'bytes'>>;

const TIMESTAMP: Shape = { 1: 'varint', 2: 'varint' };
const QUANTITY: Shape = { 1: 'bytes' };
const INT_OR_STRING: Shape = { 1: 'varint', 2: 'varint', 3: 'bytes' };
const DURATION: Shape = { 1: 'varint' };
const RAW: Shape = { 1: 'bytes' };

/** Reads a small fixed-shape message: the last value of each known field, by field number. */
function fields(bytes: Uint8Array, what: string, shape: Shape): Map<number, bigint | Uint8Array> {
  const reader = new WireReader(bytes);
  const values = new Map<number, bigint | Uint8Array>();
  while (!reader.done) {
    const tag = reader.readTag();
    const expected = shape[tag.field];
    if (expected === undefined) {
      reader.skip(tag);
      continue;
    }
    const wireType = expected === 'varint' ? WireType.varint : WireType.lengthDelimited;
    if (tag.wireType !== wireType) throw malformed(`${what} field ${tag.field} has wire type ${tag.wireType}, expected ${wireType}`);
    values.set(tag.field, expected === 'varint' ? reader.readVarint() : reader.readBytes());
  }
  return values;
}

const varintField = (values: Map<number, bigint | Uint8Array>, field: number): bigint => {
  const value = values.get(field);
  return typeof value === 'bigint' ? value : 0n;
};

const textDecoder = new TextDecoder();

const stringField = (values: Map<number, bigint | Uint8Array>, field: number): string | undefined => {
  const value = values.get(field);
  return value instanceof Uint8Array ? textDecoder.decode(value) : undefined;
};

function timestamp(bytes: Uint8Array): { date: Date; nanos: number } | undefined {
  // Go writes a zero metav1.Time as an empty message; that is "no time", JSON null.
  if (bytes.length === 0) return undefined;
  const values = fields(bytes, 'Timestamp', TIMESTAMP);
  const seconds = BigInt.asIntN(64, varintField(values, 1));
  const nanos = Number(BigInt.asIntN(32, varintField(values, 2)));
  const date = new Date(Number(seconds) * 1000);
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 0 || year > 9999 || nanos < 0 || nanos > 999_999_999) {
    throw malformed(`timestamp ${seconds}s ${nanos}ns is outside the range RFC 3339 can express`);
  }
  return { date, nanos };
}

/** metav1.Time: RFC 3339 at second precision; Go drops the nanoseconds on decode too. */
export function formatTime(bytes: Uint8Array): string | undefined {
  const time = timestamp(bytes);
  return time && metaTime(time.date);
}

/** metav1.MicroTime: RFC 3339 with exactly six fractional digits. */
export function formatMicroTime(bytes: Uint8Array): string | undefined {
  const time = timestamp(bytes);
  if (!time) return undefined;
  const micros = String(Math.floor(time.nanos / 1000)).padStart(6, '0');
  return time.date.toISOString().replace(/\.\d{3}Z$/, `.${micros}Z`);
}

/** resource.Quantity {string = 1}; an absent string is Go's zero Quantity, "0". */
export function formatQuantity(bytes: Uint8Array): string {
  return stringField(fields(bytes, 'Quantity', QUANTITY), 1) ?? '0';
}

/** intstr.IntOrString {type = 1, intVal = 2, strVal = 3}: type 1 means string. */
export function formatIntOrString(bytes: Uint8Array): number | string {
  const values = fields(bytes, 'IntOrString', INT_OR_STRING);
  if (varintField(values, 1) === 1n) return stringField(values, 3) ?? '';
  return Number(BigInt.asIntN(32, varintField(values, 2)));
}

/** metav1.Duration {duration = 1 (nanoseconds)} as Go's time.Duration.String(). */
export function formatDuration(bytes: Uint8Array): string {
  return formatGoDuration(BigInt.asIntN(64, varintField(fields(bytes, 'Duration', DURATION), 1)));
}

export function formatGoDuration(nanoseconds: bigint): string {
  if (nanoseconds === 0n) return '0s';
  const sign = nanoseconds < 0n ? '-' : '';
  let rest = nanoseconds < 0n ? -nanoseconds : nanoseconds;
  if (rest < 1000n) return `${sign}${rest}ns`;
  if (rest < 1_000_000n) return `${sign}${decimal(rest, 3)}µs`;
  if (rest < 1_000_000_000n) return `${sign}${decimal(rest, 6)}ms`;
  const hours = rest / 3_600_000_000_000n;
  rest -= hours * 3_600_000_000_000n;
  const minutes = rest / 60_000_000_000n;
  rest -= minutes * 60_000_000_000n;
  const seconds = `${decimal(rest, 9)}s`;
  if (hours > 0n) return `${sign}${hours}h${minutes}m${seconds}`;
  if (minutes > 0n) return `${sign}${minutes}m${seconds}`;
  return `${sign}${seconds}`;
}

function decimal(value: bigint, fractionDigits: number): string {
  const scale = 10n ** BigInt(fractionDigits);
  const fraction = (value % scale).toString().padStart(fractionDigits, '0').replace(/0+$/, '');
  return fraction ? `${value / scale}.${fraction}` : `${value / scale}`;
}

/**
 * runtime.RawExtension / metav1.FieldsV1 {raw = 1}: the raw bytes are the JSON value itself.
 * Absent raw is JSON null in Go, which we omit.
 */
export function parseRawJson(bytes: Uint8Array, path: string): unknown {
  const raw = fields(bytes, 'RawExtension', RAW).get(1);
  if (!(raw instanceof Uint8Array) || raw.length === 0) return undefined;
  try {
    return JSON.parse(textDecoder.decode(raw));
  } catch {
    throw malformed(`${path} holds raw bytes that are not JSON`);
  }
}
