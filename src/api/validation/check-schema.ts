// Checks an object against the JSON schema of its kind: types, enums, minimums, required
// fields, and fields the schema does not know. Each schema node is compiled once into a
// closure (cached by node identity), so a check is a single walk over the object with no
// schema interpretation on the hot path.
import { isObject, type FieldError } from '../meta.js';
import { notSupported, invalid, required, typeInvalid } from './field-errors.js';
import { isQuantity } from './quantity.js';

export interface CheckOptions {
  /** 'report': list unknown fields; 'prune': also delete them from the object in place. */
  unknownFields: 'prune' | 'report';
}

export interface CheckResult {
  errors: FieldError[];
  /** Paths of unknown fields, e.g. `spec.replica`, `spec.template.spec.containers[0].imagee`. */
  unknownFields: string[];
}

interface Context {
  errors: FieldError[];
  unknown: string[];
  prune: boolean;
  /**
   * Path of the value being checked, as segments: property names, array indices, and map keys
   * already wrapped as `[key]`. Joined into a string only when something is reported, which
   * keeps the walk free of string building.
   */
  path: Array<string | number>;
}

type Check = (value: unknown, ctx: Context) => void;
type Node = Record<string, unknown>;

const compiled = new WeakMap<object, Check>();

/**
 * Checks `object` against `schema`; with unknownFields 'prune', unknown fields are deleted. A
 * null list item becomes its type's zero value in place, as Kubernetes decodes it.
 */
export function checkSchema(schema: object, object: unknown, options: CheckOptions): CheckResult {
  const ctx: Context = { errors: [], unknown: [], prune: options.unknownFields === 'prune', path: [] };
  compile(schema as Node)(object, ctx);
  return { errors: ctx.errors, unknownFields: ctx.unknown };
}

function compile(schema: Node): Check {
  const cached = compiled.get(schema);
  if (cached) return cached;
  // The indirection lets a (theoretically) recursive schema reference itself while compiling.
  let impl: Check = () => undefined;
  const check: Check = (value, ctx) => impl(value, ctx);
  compiled.set(schema, check);
  impl = build(schema);
  return check;
}

function build(schema: Node): Check {
  if (schema['x-kubernetes-int-or-string'] === true) return intOrString;
  if (schema['format'] === 'quantity') return quantityCheck;
  if (schema['x-kubernetes-preserve-unknown-fields'] === true) return anyObject;
  switch (schema['type']) {
    case 'object':
      return buildObject(schema);
    case 'array':
      return buildArray(schema);
    case 'string':
      return buildString(schema);
    case 'integer':
      return buildNumber(schema, true);
    case 'number':
      return buildNumber(schema, false);
    case 'boolean':
      return (value, ctx) => {
        if (typeof value !== 'boolean' && value !== null) ctx.errors.push(wrongType(ctx, value, 'boolean'));
      };
    default:
      return () => undefined;
  }
}

/** The current path, Kubernetes style: `spec.containers[0].ports[1].name`, `metadata.labels[app]`. */
function pathOf(ctx: Context): string {
  let out = '';
  for (const segment of ctx.path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (segment.startsWith('[') || out === '') out += segment;
    else out += `.${segment}`;
  }
  return out;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value;
}

function wrongType(ctx: Context, value: unknown, expected: string): FieldError {
  return typeInvalid(pathOf(ctx), jsonType(value), `must be of type ${expected}`);
}

function buildObject(schema: Node): Check {
  const properties = isObject(schema['properties']) ? schema['properties'] : undefined;
  const additional = schema['additionalProperties'];
  if (!properties) {
    if (isObject(additional)) return buildMap(compile(additional));
    return anyObject;
  }
  const children = new Map<string, Check>();
  for (const [name, child] of Object.entries(properties)) {
    if (isObject(child)) children.set(name, compile(child));
  }
  const mandatory = Array.isArray(schema['required']) ? (schema['required'] as string[]) : [];
  const closed = additional === false;
  return (value, ctx) => {
    if (value === null || value === undefined) return;
    if (!isObject(value)) {
      ctx.errors.push(wrongType(ctx, value, 'object'));
      return;
    }
    const path = ctx.path;
    for (const name in value) {
      const check = children.get(name);
      path.push(name);
      if (check) check(value[name], ctx);
      else if (closed) unknownField(value, name, ctx);
      path.pop();
    }
    for (const name of mandatory) {
      if (value[name] !== undefined && value[name] !== null) continue;
      path.push(name);
      ctx.errors.push(required(pathOf(ctx)));
      path.pop();
    }
  };
}

function unknownField(object: Record<string, unknown>, name: string, ctx: Context): void {
  ctx.unknown.push(pathOf(ctx));
  if (ctx.prune) delete object[name];
}

function buildMap(values: Check): Check {
  return (value, ctx) => {
    if (value === null || value === undefined) return;
    if (!isObject(value)) {
      ctx.errors.push(wrongType(ctx, value, 'object'));
      return;
    }
    for (const name in value) {
      ctx.path.push(`[${name}]`);
      values(value[name], ctx);
      ctx.path.pop();
    }
  };
}

const anyObject: Check = (value, ctx) => {
  if (value !== null && value !== undefined && !isObject(value)) ctx.errors.push(wrongType(ctx, value, 'object'));
};

/**
 * What a null list item decodes to in Kubernetes (Go's zero value of the item type): `[null]`
 * in `containers` is a container with no name, so it fails as one, and no component ever
 * meets a null where the schema promises a container, toleration or string.
 */
function zeroValueOf(schema: Node): () => unknown {
  switch (schema['type']) {
    case 'object':
      return () => ({});
    case 'array':
      return () => [];
    case 'string':
      return () => '';
    case 'integer':
    case 'number':
      return () => 0;
    case 'boolean':
      return () => false;
    default:
      return () => null;
  }
}

function buildArray(schema: Node): Check {
  const itemSchema = isObject(schema['items']) ? schema['items'] : undefined;
  const items = itemSchema ? compile(itemSchema) : undefined;
  const zero = itemSchema ? zeroValueOf(itemSchema) : () => null;
  return (value, ctx) => {
    if (value === null || value === undefined) return;
    if (!Array.isArray(value)) {
      ctx.errors.push(wrongType(ctx, value, 'array'));
      return;
    }
    for (let i = 0; i < value.length; i++) {
      if (value[i] === null) value[i] = zero();
      if (!items) continue;
      ctx.path.push(i);
      items(value[i], ctx);
      ctx.path.pop();
    }
  };
}

function buildString(schema: Node): Check {
  const allowed = Array.isArray(schema['enum']) ? (schema['enum'] as string[]) : undefined;
  const dateTime = schema['format'] === 'date-time';
  return (value, ctx) => {
    if (value === null || value === undefined) return;
    if (typeof value !== 'string') {
      ctx.errors.push(wrongType(ctx, value, 'string'));
      return;
    }
    // "" means unset in Kubernetes (defaulters fill it in), so it never fails the enum check.
    if (allowed && value !== '' && !allowed.includes(value)) {
      ctx.errors.push(
        notSupported(
          pathOf(ctx),
          value,
          allowed.filter((item) => item !== ''),
        ),
      );
    } else if (dateTime && value !== '' && Number.isNaN(Date.parse(value))) {
      ctx.errors.push(invalid(pathOf(ctx), value, 'must be an RFC 3339 date-time, e.g. 2006-01-02T15:04:05Z'));
    }
  };
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
/** Beyond ±2^63 a number is no int64 (Kubernetes' decoder rejects it); below, doubles round. */
const INT64_LIMIT = 2 ** 63;

function buildNumber(schema: Node, integer: boolean): Check {
  const minimum = typeof schema['minimum'] === 'number' ? schema['minimum'] : undefined;
  const maximum = typeof schema['maximum'] === 'number' ? schema['maximum'] : undefined;
  const int32 = schema['format'] === 'int32';
  const int64 = schema['format'] === 'int64';
  const expected = integer ? 'integer' : 'number';
  return (value, ctx) => {
    if (value === null || value === undefined) return;
    if (typeof value !== 'number' || (integer && !Number.isInteger(value))) {
      ctx.errors.push(wrongType(ctx, value, expected));
      return;
    }
    if (minimum !== undefined && value < minimum) {
      ctx.errors.push(invalid(pathOf(ctx), value, `must be greater than or equal to ${minimum}`));
    } else if (maximum !== undefined && value > maximum) {
      ctx.errors.push(invalid(pathOf(ctx), value, `must be less than or equal to ${maximum}`));
    } else if (int32 && (value < INT32_MIN || value > INT32_MAX)) {
      ctx.errors.push(invalid(pathOf(ctx), value, 'must be a 32-bit integer'));
    } else if (int64 && Math.abs(value) >= INT64_LIMIT) {
      ctx.errors.push(invalid(pathOf(ctx), value, 'must be a 64-bit integer'));
    }
  };
}

const intOrString: Check = (value, ctx) => {
  if (value === null || value === undefined || typeof value === 'string') return;
  if (typeof value !== 'number' || !Number.isInteger(value)) ctx.errors.push(wrongType(ctx, value, 'integer or string'));
};

const quantityCheck: Check = (value, ctx) => {
  if (value === null || value === undefined) return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) ctx.errors.push(invalid(pathOf(ctx), value, 'must be a finite number'));
    return;
  }
  if (typeof value !== 'string') {
    ctx.errors.push(wrongType(ctx, value, 'string'));
    return;
  }
  if (!isQuantity(value)) {
    ctx.errors.push(invalid(pathOf(ctx), value, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
  }
};
