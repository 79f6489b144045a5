// Small helpers over TypeBox so that the (long) schema files read like the Kubernetes type
// definitions: every field optional unless listed as required, every object closed
// (additionalProperties: false) so that unknown fields can be found, and every field described.
//
// Named types: a schema created with `named()` carries DEFINITION_KEY. The schemas stay inline
// (patch and validation code walk them directly); only the OpenAPI generator turns named nodes
// into `$ref`s, so that `kubectl explain` prints `<PodSpec>` as it does against Kubernetes.
import { Type, type TSchema } from '@sinclair/typebox';

/** Marks a schema node as the named OpenAPI definition it stands for. */
export const DEFINITION_KEY = 'x-drover-definition';
/** On a named schema: the document to publish in OpenAPI instead of the inline one (IntOrString, Quantity). */
export const OPENAPI_OVERRIDE_KEY = 'x-drover-openapi';

export type Schema = TSchema;
type Extensions = Record<string, unknown>;

/** Every named definition, by OpenAPI name, with its type-level description. */
export const namedDefinitions = new Map<string, Schema>();

/** Registers `schema` as the named definition `name` (e.g. io.k8s.api.core.v1.PodSpec). */
export function named<T extends Schema>(name: string, schema: T): T {
  const marked = { ...schema, [DEFINITION_KEY]: name } as T;
  namedDefinitions.set(name, marked);
  return marked;
}

/** The same schema with the description of the field that uses it (the type keeps its own in OpenAPI). */
export function field<T extends Schema>(schema: T, description: string, extensions: Extensions = {}): T {
  return { ...schema, description, ...extensions } as T;
}

/**
 * A closed object: properties are optional unless named in `required`.
 * `extensions` carries x-kubernetes-* keys (e.g. x-kubernetes-map-type).
 */
export function struct(description: string, properties: Record<string, Schema>, required: readonly string[] = [], extensions: Extensions = {}): Schema {
  const props: Record<string, Schema> = {};
  for (const [key, value] of Object.entries(properties)) {
    props[key] = required.includes(key) ? value : Type.Optional(value);
  }
  return Type.Object(props, { description, additionalProperties: false, ...extensions });
}

export function str(description: string, extra: Extensions = {}): Schema {
  return Type.String({ description, ...extra });
}

/** A string restricted to the values Kubernetes validation accepts (published as `enum`). */
export function enumStr(description: string, values: readonly string[], extra: Extensions = {}): Schema {
  return Type.Unsafe<string>({ type: 'string', enum: [...values], description, ...extra });
}

export function int32(description: string, extra: Extensions = {}): Schema {
  return Type.Integer({ description, format: 'int32', ...extra });
}

export function int64(description: string, extra: Extensions = {}): Schema {
  return Type.Integer({ description, format: 'int64', ...extra });
}

export function num(description: string): Schema {
  return Type.Number({ description, format: 'double' });
}

export function bool(description: string): Schema {
  return Type.Boolean({ description });
}

/** RFC 3339 timestamp (metav1.Time). */
export function time(description: string): Schema {
  return Type.String({ description, format: 'date-time' });
}

/** RFC 3339 timestamp with microseconds (metav1.MicroTime). */
export function microTime(description: string): Schema {
  return Type.String({ description, format: 'date-time' });
}

/** A map with string keys; `values` is the schema of each value (default: string). */
export function map(description: string, values: Schema = Type.String(), extensions: Extensions = {}): Schema {
  return Type.Unsafe({ type: 'object', additionalProperties: values, description, ...extensions });
}

/** A list. Pass x-kubernetes-list-type / patch extensions through `extensions`. */
export function list(description: string, items: Schema, extensions: Extensions = {}): Schema {
  return Type.Array(items, { description, ...extensions });
}

/** A list of strings that merges as a set (x-kubernetes-list-type: set). */
export function stringSet(description: string): Schema {
  return list(description, Type.String(), { 'x-kubernetes-list-type': 'set' });
}

/** A list of strings replaced whole. */
export function stringList(description: string): Schema {
  return list(description, Type.String(), { 'x-kubernetes-list-type': 'atomic' });
}

/** List of objects keyed by one field, merged by that key in strategic merge patch and apply. */
export function keyedList(description: string, items: Schema, key: string, strategy = 'merge'): Schema {
  return list(description, items, {
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': [key],
    'x-kubernetes-patch-merge-key': key,
    'x-kubernetes-patch-strategy': strategy,
  });
}

/** A list of objects replaced whole. */
export function atomicList(description: string, items: Schema): Schema {
  return list(description, items, { 'x-kubernetes-list-type': 'atomic' });
}

/** An integer or a string such as "25%" (intstr.IntOrString). */
export const IntOrString = named(
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
  Type.Unsafe({
    'x-kubernetes-int-or-string': true,
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    description: 'A value that is either a 32-bit integer or a string (for example a percentage such as "25%" or a port name).',
    [OPENAPI_OVERRIDE_KEY]: { type: 'string', format: 'int-or-string' },
  }),
);

/** A resource quantity: "500m", "1Gi", 2, 0.5. */
export const Quantity = named(
  'io.k8s.apimachinery.pkg.api.resource.Quantity',
  Type.Unsafe({
    anyOf: [{ type: 'number' }, { type: 'string' }],
    format: 'quantity',
    description:
      'A fixed-point number with an optional suffix: a binary SI suffix (Ki, Mi, Gi, Ti, Pi, Ei), a decimal SI suffix (m, k, M, G, T, P, E) or a decimal exponent (e3). Examples: "500m" (half a CPU), "128Mi", "1.5", 2.',
    [OPENAPI_OVERRIDE_KEY]: { type: 'string' },
  }),
);

export function intOrString(description: string): Schema {
  return field(IntOrString, description);
}

export function quantity(description: string): Schema {
  return field(Quantity, description);
}

/** A map of resource name (cpu, memory, ...) to quantity. */
export function resourceList(description: string): Schema {
  return map(description, Quantity);
}
