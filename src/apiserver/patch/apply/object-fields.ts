// The field set of an object: every leaf it sets, per its schema. Scalars, atomic lists and
// maps, and empty objects and lists are leaves; a granular object contributes its fields and
// an associative list its items (each item a member itself, as Kubernetes' "." marks).
import type { JsonSchema } from '../../../api/schema-nav.js';
import { FieldSet } from './field-set.js';
import { isUntrackedMetadataField, isUntrackedRootField, type FieldScope } from './field-scope.js';
import { listShape, nameItems } from './list-elements.js';
import { displayPath, fieldElement } from './path-element.js';
import { childSchema, isEmptyContainer, isGranularObject, isPlainObject, type PlainObject } from './values.js';

/** A list in an applied config whose items cannot be named (missing or duplicate keys). */
export class InvalidListError extends Error {
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(`${path}: ${why}`);
    this.name = 'InvalidListError';
  }
}

export interface WalkContext {
  /** Path of the value being walked, for error messages. */
  path: string[];
  /** Throw InvalidListError for unnamed lists instead of treating them as atomic. */
  strict: boolean;
}

/** The managed fields of a whole object within `scope`. */
export function objectFieldSet(object: PlainObject, schema: JsonSchema | undefined, scope: FieldScope, strict = false): FieldSet {
  const root = new FieldSet();
  const context: WalkContext = { path: [], strict };
  for (const name in object) {
    const value = object[name];
    if (value === undefined || isUntrackedRootField(name, scope)) continue;
    const element = fieldElement(name);
    const node = root.child(element);
    context.path.push(element);
    if (name === 'metadata' && isPlainObject(value)) {
      collectFields(value, childSchema(schema, name), node, context, isUntrackedMetadataField);
    } else {
      collectValue(value, childSchema(schema, name), node, context);
    }
    context.path.pop();
    if (node.isEmpty()) root.delete(element);
  }
  return root;
}

/** Adds the fields of `value` (found at `node`'s path) to `node`. */
export function collectValue(value: unknown, schema: JsonSchema | undefined, node: FieldSet, context: WalkContext): void {
  if (Array.isArray(value)) {
    collectList(value, schema, node, context);
  } else if (isGranularObject(value, schema) && !isEmptyContainer(value)) {
    collectFields(value, schema, node, context);
  } else {
    node.member = true;
  }
}

function collectFields(object: PlainObject, schema: JsonSchema | undefined, node: FieldSet, context: WalkContext, skip?: (name: string) => boolean): void {
  for (const name in object) {
    const value = object[name];
    if (value === undefined || skip?.(name)) continue;
    const element = fieldElement(name);
    context.path.push(element);
    collectValue(value, childSchema(schema, name), node.child(element), context);
    context.path.pop();
  }
}

function collectList(list: unknown[], schema: JsonSchema | undefined, node: FieldSet, context: WalkContext): void {
  const shape = listShape(schema);
  if (list.length === 0 || shape.kind === 'atomic') {
    node.member = true;
    return;
  }
  const named = nameItems(list, shape);
  if (typeof named === 'string') {
    if (context.strict) throw new InvalidListError(displayPath(context.path), named);
    node.member = true;
    return;
  }
  for (let i = 0; i < list.length; i++) {
    const element = named.elements[i] as string;
    const child = node.child(element);
    child.member = true;
    if (shape.kind !== 'map') continue;
    context.path.push(element);
    collectFields(list[i] as PlainObject, shape.items, child, context);
    context.path.pop();
  }
}
