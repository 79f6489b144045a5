// Declarative description of Kubernetes protobuf messages: one table per message, keyed by the
// field numbers of the upstream generated.proto files, naming the JSON field each one fills.

/** Wire scalars, and the apimachinery types whose JSON form is not their message shape. */
export type ScalarType = 'string' | 'int32' | 'int64' | 'bool' | 'double' | 'bytes';
export type WellKnownType =
  | 'time' // metav1.Time {seconds, nanos} → RFC3339 at second precision
  | 'microTime' // metav1.MicroTime → RFC3339 with microseconds
  | 'quantity' // resource.Quantity {string} → "500m"
  | 'intOrString' // intstr.IntOrString {type, intVal, strVal} → 80 or "http"
  | 'duration' // metav1.Duration {duration (ns)} → Go duration string "1h0m0s"
  | 'rawJson'; // runtime.RawExtension / metav1.FieldsV1 {raw} → embedded JSON value

export interface MapType {
  readonly map: { readonly key: ScalarType; readonly value: FieldType };
}

export type FieldType = ScalarType | WellKnownType | MessageSchema | MapType;

export interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
  readonly repeated?: boolean;
  /**
   * The Go field is a pointer (or has no `omitempty`), so a zero value on the wire means
   * something ("replicas: 0", "immutable: false") and is kept. Without it, zero scalars are
   * dropped, because gogo-protobuf writes non-pointer scalars even when unset.
   */
  readonly keep?: boolean;
  /** A Go struct embedded with `json:",inline"`: its fields land in the parent object. */
  readonly inline?: boolean;
}

export interface MessageSchema {
  readonly message: string;
  readonly fields: Readonly<Record<number, FieldSpec>>;
}

export function message(name: string, fields: Record<number, FieldSpec>): MessageSchema {
  return { message: name, fields };
}

type Options = Pick<FieldSpec, 'repeated' | 'keep' | 'inline'>;

/** Repeated field. */
export const REP: Options = { repeated: true };
/** Pointer field: keep zero values. */
export const PTR: Options = { keep: true };
/** Go field without `omitempty`: its JSON form always carries the value, zero included. */
export const ALWAYS: Options = { keep: true };

const field =
  (type: FieldType) =>
  (name: string, options: Options = {}): FieldSpec => ({ name, type, ...options });

export const str = field('string');
export const i32 = field('int32');
export const i64 = field('int64');
export const bool = field('bool');
export const f64 = field('double');
export const bytes = field('bytes');
export const time = field('time');
export const microTime = field('microTime');
export const quantity = field('quantity');
export const intOrString = field('intOrString');
export const duration = field('duration');
export const rawJson = field('rawJson');

export function msg(name: string, schema: MessageSchema, options: Options = {}): FieldSpec {
  return { name, type: schema, ...options };
}

export function map(name: string, value: FieldType = 'string'): FieldSpec {
  return { name, type: { map: { key: 'string', value } } };
}
