// Validates a custom resource against its version's structural schema, with the messages
// Kubernetes' apiextensions validation gives (kube-openapi's, as field errors): type, enum,
// required, bounds, lengths, pattern, simple formats, list types, nullable, the logical
// combinators, int-or-string and embedded resources (apiVersion, kind and ObjectMeta checked).
import { isObject, type FieldError, type ObjectMeta } from '../meta.js';
import { duplicate, invalid, notSupported, required, tooLong, tooMany, typeInvalid } from '../validation/field-errors.js';
import { validateObjectMeta } from '../validation/object-meta.js';
import { child, isEmbedded, isIntOrString, joinPath, property, schemaList, type SchemaNode } from './schema-node.js';
import { jsonEqual } from '../../util/json-equal.js';
import { checkRules } from './cel/rules.js';

/** `old`: on update, the stored object, for the CEL transition rules (oldSelf). */
export function validateValue(schema: SchemaNode, value: unknown, path: string, old?: unknown): FieldError[] {
  const errors: FieldError[] = [];
  check(schema, value, path, errors, old === undefined ? undefined : { value: old });
  return errors;
}

/** The previous value of a child, when the parent had one with that key (how Kubernetes correlates objects and maps). */
function childOf(old: Previous, key: string): Previous {
  return old && isObject(old.value) && old.value[key] !== undefined ? { value: old.value[key] } : undefined;
}

type Previous = { value: unknown } | undefined;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(type: string, value: unknown): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

function check(schema: SchemaNode, value: unknown, path: string, errors: FieldError[], old?: Previous): void {
  if (value === null) {
    if (schema['nullable'] !== true && typeof schema['type'] === 'string') {
      errors.push(invalid(path, 'null', `${path || 'body'} in body must be of type ${String(schema['type'])}: "null"`));
    }
    return;
  }
  const type = schema['type'];
  if (isIntOrString(schema)) {
    if (typeof value !== 'string' && !(typeof value === 'number' && Number.isInteger(value))) {
      errors.push(typeInvalid(path, value, `${path} in body must be of type integer or string: "${typeOf(value)}"`));
      return;
    }
  } else if (typeof type === 'string' && type !== '' && !matchesType(type, value)) {
    errors.push(invalid(path, typeOf(value), `${path || 'body'} in body must be of type ${type}: "${typeOf(value)}"`));
    return;
  }
  checkEnum(schema, value, path, errors);
  if (typeof value === 'number') checkNumber(schema, value, path, errors);
  if (typeof value === 'string') checkString(schema, value, path, errors);
  if (Array.isArray(value)) checkArray(schema, value, path, errors);
  if (isObject(value)) checkObject(schema, value, path, errors, old);
  checkCombinators(schema, value, path, errors);
  checkRules(schema, value, path, old, errors);
}

function checkEnum(schema: SchemaNode, value: unknown, path: string, errors: FieldError[]): void {
  const options = schema['enum'];
  if (!Array.isArray(options) || options.some((option) => jsonEqual(option, value))) return;
  errors.push(
    notSupported(
      path,
      value,
      options.map((option) => (typeof option === 'string' ? option : JSON.stringify(option))),
    ),
  );
}

function checkNumber(schema: SchemaNode, value: number, path: string, errors: FieldError[]): void {
  const { minimum, maximum, multipleOf } = schema;
  if (typeof minimum === 'number') {
    if (schema['exclusiveMinimum'] === true ? value <= minimum : value < minimum) {
      errors.push(invalid(path, value, `${path} in body should be greater than ${schema['exclusiveMinimum'] === true ? '' : 'or equal to '}${minimum}`));
    }
  }
  if (typeof maximum === 'number') {
    if (schema['exclusiveMaximum'] === true ? value >= maximum : value > maximum) {
      errors.push(invalid(path, value, `${path} in body should be less than ${schema['exclusiveMaximum'] === true ? '' : 'or equal to '}${maximum}`));
    }
  }
  if (typeof multipleOf === 'number' && multipleOf > 0 && !Number.isInteger(value / multipleOf)) {
    errors.push(invalid(path, value, `${path} in body should be a multiple of ${multipleOf}`));
  }
  const format = schema['format'];
  if (format === 'int32' && (value < -(2 ** 31) || value >= 2 ** 31)) errors.push(invalid(path, value, `${path} in body must be of type int32: "${value}"`));
}

const FORMATS: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  uuid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  ipv4: /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/,
  hostname: /^(?=.{1,253}$)[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?)*$/,
  byte: /^[A-Za-z0-9+/]*={0,2}$/,
  email: /^[^@\s]+@[^@\s]+\.[^@\s]+$/,
};

function checkString(schema: SchemaNode, value: string, path: string, errors: FieldError[]): void {
  const length = [...value].length;
  if (typeof schema['maxLength'] === 'number' && length > schema['maxLength']) errors.push(tooLong(path, schema['maxLength']));
  if (typeof schema['minLength'] === 'number' && length < schema['minLength']) {
    errors.push(invalid(path, value, `${path} in body should be at least ${schema['minLength']} chars long`));
  }
  if (typeof schema['pattern'] === 'string' && !patternOf(schema['pattern'])?.test(value)) {
    errors.push(invalid(path, value, `${path} in body should match '${schema['pattern']}'`));
  }
  const format = typeof schema['format'] === 'string' ? FORMATS[schema['format']] : undefined;
  if (format && !format.test(value)) errors.push(invalid(path, value, `${path} in body must be of type ${String(schema['format'])}: ${JSON.stringify(value)}`));
}

const patterns = new Map<string, RegExp | undefined>();

/** ECMA-262 patterns, as OpenAPI defines them; one that does not compile matches nothing (structural.ts refuses it). */
export function patternOf(source: string): RegExp | undefined {
  if (!patterns.has(source)) {
    try {
      patterns.set(source, new RegExp(source, 'u'));
    } catch {
      patterns.set(source, undefined);
    }
  }
  return patterns.get(source);
}

function checkArray(schema: SchemaNode, value: unknown[], path: string, errors: FieldError[]): void {
  if (typeof schema['maxItems'] === 'number' && value.length > schema['maxItems']) errors.push(tooMany(path, value.length, schema['maxItems']));
  if (typeof schema['minItems'] === 'number' && value.length < schema['minItems']) {
    errors.push(invalid(path, value, `${path} in body should have at least ${schema['minItems']} items`));
  }
  const items = child(schema, 'items');
  if (items) value.forEach((item, i) => check(items, item, `${path}[${i}]`, errors));
  checkListType(schema, value, path, errors);
}

/** uniqueItems, x-kubernetes-list-type set (unique values) and map (unique keys). */
function checkListType(schema: SchemaNode, value: unknown[], path: string, errors: FieldError[]): void {
  const listType = schema['x-kubernetes-list-type'];
  if (schema['uniqueItems'] === true || listType === 'set') {
    value.forEach((item, i) => {
      if (value.findIndex((other) => jsonEqual(other, item)) < i) errors.push(duplicate(`${path}[${i}]`, item));
    });
  }
  const keys = schema['x-kubernetes-list-map-keys'];
  if (listType === 'map' && Array.isArray(keys)) {
    const seen = new Set<string>();
    value.forEach((item, i) => {
      if (!isObject(item)) return;
      const identity = JSON.stringify(keys.map((key: string) => item[key] ?? null));
      if (seen.has(identity)) errors.push(duplicate(`${path}[${i}]`, Object.fromEntries(keys.map((key: string) => [key, item[key]]))));
      seen.add(identity);
    });
  }
}

function checkObject(schema: SchemaNode, value: Record<string, unknown>, path: string, errors: FieldError[], old: Previous): void {
  const names = Object.keys(value);
  if (typeof schema['maxProperties'] === 'number' && names.length > schema['maxProperties']) errors.push(tooMany(path, names.length, schema['maxProperties']));
  if (typeof schema['minProperties'] === 'number' && names.length < schema['minProperties']) {
    errors.push(invalid(path, names.length, `${path} in body should have at least ${schema['minProperties']} properties`));
  }
  const mandatory = Array.isArray(schema['required']) ? schema['required'] : [];
  for (const name of mandatory) {
    if (typeof name === 'string' && value[name] === undefined) errors.push(required(joinPath(path, name)));
  }
  const additional = child(schema, 'additionalProperties');
  for (const name of names) {
    const fieldSchema = property(schema, name);
    if (fieldSchema) check(fieldSchema, value[name], joinPath(path, name), errors, childOf(old, name));
    else if (additional) check(additional, value[name], `${path}[${name}]`, errors, childOf(old, name));
  }
  if (isEmbedded(schema)) checkEmbedded(value, path, errors);
}

/** An embedded object is a whole Kubernetes object: apiVersion, kind and valid ObjectMeta. */
function checkEmbedded(value: Record<string, unknown>, path: string, errors: FieldError[]): void {
  for (const name of ['apiVersion', 'kind']) {
    if (typeof value[name] !== 'string' || value[name] === '') errors.push(required(joinPath(path, name), 'must not be empty'));
  }
  const metadata = value['metadata'];
  if (!isObject(metadata)) return;
  // A template's name may be left to whoever makes the object from it.
  const meta = { ...metadata, name: typeof metadata['name'] === 'string' && metadata['name'] !== '' ? metadata['name'] : 'x' } as ObjectMeta;
  delete meta.namespace;
  errors.push(...validateObjectMeta(meta, { namespaced: false, nameRule: 'dns1123-subdomain' }, joinPath(path, 'metadata')));
}

function passes(schema: SchemaNode, value: unknown, path: string): boolean {
  return validateValue(schema, value, path).length === 0;
}

/** Value validations: allOf, anyOf, oneOf and not, each a schema the value must (not) satisfy. */
function checkCombinators(schema: SchemaNode, value: unknown, path: string, errors: FieldError[]): void {
  const name = path || 'body';
  for (const sub of schemaList(schema, 'allOf')) check(sub, value, path, errors);
  const anyOf = schemaList(schema, 'anyOf');
  if (anyOf.length > 0 && !anyOf.some((sub) => passes(sub, value, path))) {
    errors.push(invalid(path, value, `${name} in body must validate at least one schema (anyOf)`));
  }
  const oneOf = schemaList(schema, 'oneOf');
  if (oneOf.length > 0 && oneOf.filter((sub) => passes(sub, value, path)).length !== 1) {
    errors.push(invalid(path, value, `${name} in body must validate one and only one schema (oneOf)`));
  }
  const not = child(schema, 'not');
  if (not && passes(not, value, path)) errors.push(invalid(path, value, `${name} in body must not validate the schema (not)`));
}
