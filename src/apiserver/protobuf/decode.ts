// Table-driven decoding of a protobuf message into the JSON object Kubernetes' Go types would
// marshal to.
//
// Presence rule. gogo-protobuf writes every non-pointer scalar (even "" and 0) and every
// non-pointer struct (even empty), and writes pointers only when set. Go's JSON encoder drops
// zero scalars tagged `omitempty` but always writes structs. So:
//   - a scalar equal to "", 0 or false is dropped, unless its table entry is marked `keep`
//     (a Go pointer, where zero is a real value such as `replicas: 0`, or a field without
//     `omitempty` that JSON always carries);
//   - a message present on the wire becomes an object, `{}` when empty (`status: {}`);
//   - list and map entries are always kept;
//   - a zero metav1.Time (an empty message) is omitted; JSON would say `null`.
import { malformed } from './errors.js';
import type { FieldSpec, FieldType, MapType, MessageSchema } from './messages/schema.js';
import { type Tag, WireReader, WireType } from './wire.js';
import { formatDuration, formatIntOrString, formatMicroTime, formatQuantity, formatTime, parseRawJson } from './well-known.js';

export type JsonObject = Record<string, unknown>;

const textDecoder = new TextDecoder();

export function decodeMessage(bytes: Uint8Array, schema: MessageSchema, path: string): JsonObject {
  const out: JsonObject = {};
  const reader = new WireReader(bytes);
  while (!reader.done) {
    const tag = reader.readTag();
    const spec = schema.fields[tag.field];
    if (spec === undefined) reader.skip(tag);
    else decodeField(out, reader, tag, spec, `${path}.${spec.name}`);
  }
  return out;
}

function decodeField(out: JsonObject, reader: WireReader, tag: Tag, spec: FieldSpec, path: string): void {
  const type = spec.type;
  if (isMap(type)) {
    decodeMapEntry(out, expectBytes(reader, tag, path), spec.name, type, path);
  } else if (isMessage(type)) {
    decodeMessageField(out, expectBytes(reader, tag, path), spec, type, path);
  } else if (spec.repeated) {
    const list = listAt(out, spec.name);
    if (tag.wireType === WireType.lengthDelimited && isPackable(type)) {
      const packed = new WireReader(reader.readBytes());
      while (!packed.done) list.push(readValue(packed, { field: tag.field, wireType: wireTypeOf(type) }, type, path));
    } else {
      list.push(readValue(reader, tag, type, path) ?? zeroValue(type));
    }
  } else {
    const value = readValue(reader, tag, type, path);
    if (value === undefined || (isDroppableZero(type, value) && !spec.keep)) delete out[spec.name];
    else out[spec.name] = value;
  }
}

function decodeMessageField(out: JsonObject, bytes: Uint8Array, spec: FieldSpec, schema: MessageSchema, path: string): void {
  const value = decodeMessage(bytes, schema, path);
  if (spec.inline) {
    Object.assign(out, value);
  } else if (spec.repeated) {
    listAt(out, spec.name).push(value);
  } else {
    // A message field seen twice merges, as protobuf specifies.
    const previous = out[spec.name];
    out[spec.name] = isObject(previous) ? { ...previous, ...value } : value;
  }
}

function decodeMapEntry(out: JsonObject, bytes: Uint8Array, name: string, type: MapType, path: string): void {
  const reader = new WireReader(bytes);
  let key: unknown = zeroValue(type.map.key);
  let value: unknown;
  while (!reader.done) {
    const tag = reader.readTag();
    if (tag.field === 1) key = readValue(reader, tag, type.map.key, `${path} key`);
    else if (tag.field === 2) value = readMapValue(reader, tag, type.map.value, `${path}[${String(key)}]`);
    else reader.skip(tag);
  }
  const map = isObject(out[name]) ? (out[name] as JsonObject) : (out[name] = {});
  // defineProperty keeps a key such as "__proto__" an ordinary own property, as JSON.parse does.
  Object.defineProperty(map, String(key), { value: value ?? zeroValue(type.map.value), enumerable: true, writable: true, configurable: true });
}

function readMapValue(reader: WireReader, tag: Tag, type: FieldType, path: string): unknown {
  if (isMessage(type)) return decodeMessage(expectBytes(reader, tag, path), type, path);
  if (isMap(type)) throw malformed(`${path}: nested maps are not a Kubernetes type`);
  return readValue(reader, tag, type, path);
}

type ValueType = Exclude<FieldType, MessageSchema | MapType>;

function readValue(reader: WireReader, tag: Tag, type: ValueType, path: string): unknown {
  const expected = wireTypeOf(type);
  if (tag.wireType !== expected) {
    throw malformed(`${path}: field ${tag.field} has wire type ${tag.wireType}, expected ${expected} for ${type}`);
  }
  switch (type) {
    case 'int32':
      return reader.readInt32();
    case 'int64':
      return reader.readInt64();
    case 'bool':
      return reader.readBool();
    case 'double':
      return reader.readDouble();
    case 'string':
      return textDecoder.decode(reader.readBytes());
    case 'bytes':
      return toBase64(reader.readBytes());
    default:
      return readWellKnown(reader.readBytes(), type, path);
  }
}

function readWellKnown(bytes: Uint8Array, type: ValueType, path: string): unknown {
  switch (type) {
    case 'time':
      return formatTime(bytes);
    case 'microTime':
      return formatMicroTime(bytes);
    case 'quantity':
      return formatQuantity(bytes);
    case 'intOrString':
      return formatIntOrString(bytes);
    case 'duration':
      return formatDuration(bytes);
    case 'rawJson':
      return parseRawJson(bytes, path);
    default:
      throw malformed(`${path}: unknown field type ${type}`);
  }
}

function wireTypeOf(type: ValueType): number {
  if (type === 'int32' || type === 'int64' || type === 'bool') return WireType.varint;
  if (type === 'double') return WireType.fixed64;
  return WireType.lengthDelimited;
}

const isPackable = (type: ValueType): boolean => wireTypeOf(type) !== WireType.lengthDelimited;

function isDroppableZero(type: ValueType, value: unknown): boolean {
  const scalar = type === 'string' || type === 'bytes' || type === 'int32' || type === 'int64' || type === 'bool' || type === 'double';
  return scalar && (value === '' || value === 0 || value === false);
}

/** The JSON value of a map value or list element the wire left at its default. */
function zeroValue(type: FieldType): unknown {
  if (isMessage(type) || isMap(type)) return {};
  switch (type) {
    case 'string':
    case 'bytes':
      return '';
    case 'bool':
      return false;
    case 'quantity':
      return '0';
    case 'duration':
      return '0s';
    case 'time':
    case 'microTime':
    case 'rawJson':
      return null;
    default:
      return 0;
  }
}

function expectBytes(reader: WireReader, tag: Tag, path: string): Uint8Array {
  if (tag.wireType !== WireType.lengthDelimited) {
    throw malformed(`${path}: field ${tag.field} has wire type ${tag.wireType}, expected ${WireType.lengthDelimited}`);
  }
  return reader.readBytes();
}

function listAt(out: JsonObject, name: string): unknown[] {
  const existing = out[name];
  if (Array.isArray(existing)) return existing;
  const list: unknown[] = [];
  out[name] = list;
  return list;
}

const toBase64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const isMap = (type: FieldType): type is MapType => typeof type === 'object' && 'map' in type;
const isMessage = (type: FieldType): type is MessageSchema => typeof type === 'object' && 'fields' in type;
