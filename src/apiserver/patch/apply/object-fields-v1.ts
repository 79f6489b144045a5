// The fieldsV1 of a whole object written in one walk, for the create path: the same JSON as
// encoding objectFieldSet's result (empty nodes dropped), without building the trie and
// sorting it afterwards. Each object's field names are sorted once as they are emitted, which
// is Kubernetes' order for `f:` elements; a list's `k:`/`v:` elements are sorted likewise.
import type { JsonSchema } from '../../../api/schema-nav.js';
import { isUntrackedMetadataField, isUntrackedRootField, type FieldScope } from './field-scope.js';
import type { FieldsV1 } from './fields-v1.js';
import { itemElements, listShape } from './list-elements.js';
import { fieldElement } from './path-element.js';
import { childSchema, isEmptyContainer, isGranularObject, isPlainObject, type PlainObject } from './values.js';

/** `encodeFieldSet(objectFieldSet(object, schema, scope))`, or `{}` when that is empty. */
export function objectFieldsV1(object: PlainObject, schema: JsonSchema | undefined, scope: FieldScope): FieldsV1 {
  const out: FieldsV1 = {};
  for (const name of sortedNames(object)) {
    const value = object[name];
    if (value === undefined || isUntrackedRootField(name, scope)) continue;
    const valueSchema = childSchema(schema, name);
    const node = name === 'metadata' && isPlainObject(value) ? objectNode(value, valueSchema, false, isUntrackedMetadataField) : valueNode(value, valueSchema);
    if (node) out[fieldElement(name)] = node;
  }
  return out;
}

/** The node of a value: its fields, its list items, or `{}` for a leaf; undefined when empty. */
function valueNode(value: unknown, schema: JsonSchema | undefined): FieldsV1 | undefined {
  if (Array.isArray(value)) return listNode(value, schema);
  if (isGranularObject(value, schema) && !isEmptyContainer(value)) return objectNode(value, schema, false);
  return {};
}

/** An object's fields; a member (a map-list item) also gets "." and is never empty. */
function objectNode(object: PlainObject, schema: JsonSchema | undefined, member: boolean, skip?: (name: string) => boolean): FieldsV1 | undefined {
  const node: FieldsV1 = member ? { '.': {} } : {};
  let count = 0;
  for (const name of sortedNames(object)) {
    const value = object[name];
    if (value === undefined || (skip !== undefined && skip(name))) continue;
    // A scalar is a leaf whatever its schema says; most fields are scalars.
    const sub = typeof value !== 'object' || value === null ? {} : valueNode(value, childSchema(schema, name));
    if (!sub) continue;
    node[fieldElement(name)] = sub;
    count++;
  }
  if (count > 0) return node;
  return member ? {} : undefined;
}

function listNode(list: unknown[], schema: JsonSchema | undefined): FieldsV1 {
  const shape = listShape(schema);
  if (list.length === 0 || shape.kind === 'atomic') return {};
  const elements = itemElements(list, shape);
  // Items that cannot be named make the list atomic, as objectFieldSet does outside apply.
  if (!elements) return {};
  const node: FieldsV1 = {};
  for (const i of sortedPositions(elements)) {
    node[elements[i] as string] = shape.kind === 'map' ? (objectNode(list[i] as PlainObject, shape.items, true) as FieldsV1) : {};
  }
  return node;
}

/**
 * The object's field names sorted by UTF-16 code units, the order compareElements gives `f:`
 * elements. Objects have a few dozen fields at most, where an insertion sort beats Array#sort.
 */
function sortedNames(object: PlainObject): string[] {
  const names = Object.keys(object);
  if (names.length > 32) return names.sort();
  for (let i = 1; i < names.length; i++) {
    const name = names[i] as string;
    let j = i - 1;
    for (; j >= 0 && (names[j] as string) > name; j--) names[j + 1] = names[j] as string;
    names[j + 1] = name;
  }
  return names;
}

/** Positions of `elements` in element order (all of one kind, so plain string order). */
function sortedPositions(elements: readonly string[]): number[] {
  const positions = elements.map((_, i) => i);
  if (positions.length > 1) positions.sort((a, b) => ((elements[a] as string) < (elements[b] as string) ? -1 : 1));
  return positions;
}
