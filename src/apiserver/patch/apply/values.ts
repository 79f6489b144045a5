// Value and schema helpers shared by the field-set, diff, merge and prune walkers.
import { fieldSchema, isAtomicObject, itemSchema, type JsonSchema } from '../../../api/schema-nav.js';

export type PlainObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Looks through a nullable or one-branch union (`anyOf: [X, {type: 'null'}]`), which TypeBox
 * emits for optional-nullable fields, to the schema that describes the structure.
 */
export function resolveSchema(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema || schema['properties'] || schema['items'] || schema['additionalProperties']) return schema;
  const branches = schema['anyOf'] ?? schema['oneOf'] ?? schema['allOf'];
  if (!Array.isArray(branches)) return schema;
  const structured = branches.filter(
    (branch): branch is JsonSchema =>
      isPlainObject(branch) && (branch['properties'] !== undefined || branch['items'] !== undefined || branch['additionalProperties'] !== undefined),
  );
  return structured.length === 1 ? structured[0] : schema;
}

/**
 * Per-schema resolved field schemas. Every walker asks for the schema of every field it
 * visits, and resolving a nullable union allocates, so declared properties are resolved once.
 * Names outside `properties` are not cached: maps (labels, data) have unbounded key sets.
 */
interface ResolvedFields {
  declared: Map<string, JsonSchema>;
  /** The schema every undeclared name gets, when the schema declares no properties at all. */
  undeclared: { schema: JsonSchema | undefined } | undefined;
}

const resolvedFields = new WeakMap<JsonSchema, ResolvedFields>();

function resolveFields(schema: JsonSchema): ResolvedFields {
  const declared = new Map<string, JsonSchema>();
  const properties = schema['properties'];
  if (isPlainObject(properties)) {
    for (const name of Object.keys(properties)) {
      const resolved = isPlainObject(properties[name]) ? resolveChildSchema(schema, name) : undefined;
      if (resolved) declared.set(name, resolved);
    }
  }
  // Without properties the answer does not depend on the name (see fieldSchema).
  const undeclared = properties === undefined ? { schema: resolveChildSchema(schema, '') } : undefined;
  return { declared, undeclared };
}

/** Schema of field `name`; also reads `patternProperties`, which TypeBox uses for records. */
export function childSchema(schema: JsonSchema | undefined, name: string): JsonSchema | undefined {
  if (!schema) return undefined;
  let fields = resolvedFields.get(schema);
  if (!fields) {
    fields = resolveFields(schema);
    resolvedFields.set(schema, fields);
  }
  const declared = fields.declared.get(name);
  if (declared) return declared;
  return fields.undeclared ? fields.undeclared.schema : resolveChildSchema(schema, name);
}

function resolveChildSchema(schema: JsonSchema | undefined, name: string): JsonSchema | undefined {
  const found = fieldSchema(schema, name);
  if (found || !schema) return resolveSchema(found);
  const patterns = schema['patternProperties'];
  if (!isPlainObject(patterns)) return undefined;
  const first = Object.values(patterns)[0];
  return isPlainObject(first) ? resolveSchema(first) : undefined;
}

export function childItemSchema(schema: JsonSchema | undefined): JsonSchema | undefined {
  return resolveSchema(itemSchema(schema));
}

/** True for an object whose fields are tracked one by one (not x-kubernetes-map-type: atomic). */
export function isGranularObject(value: unknown, schema: JsonSchema | undefined): value is PlainObject {
  return isPlainObject(value) && !isAtomicObject(schema);
}

/** Whether an object has no keys, without allocating a list of them. */
export function isEmptyJson(value: object): boolean {
  for (const _ in value) return false;
  return true;
}

export function isEmptyContainer(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (isPlainObject(value)) {
    for (const _ in value) return false;
    return true;
  }
  return false;
}

export function cloneJson<T>(value: T): T {
  return structuredClone(value);
}
