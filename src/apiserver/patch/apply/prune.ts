// Removes the fields an applier stopped applying and nobody else owns. Whatever another
// manager still owns below a removed path stays, and containers that the removal emptied are
// removed too (Kubernetes does the same for struct fields and lists), except `metadata`.
import type { JsonSchema } from '../../../api/schema-nav.js';
import type { FieldSet } from './field-set.js';
import { listShape, nameItems } from './list-elements.js';
import { childSchema, isEmptyContainer, isGranularObject, type PlainObject } from './values.js';

/**
 * Removes the members of `remove` from `object` in place. `keep` is every field that some
 * manager (including the applier's new configuration) owns.
 */
export function pruneObject(object: PlainObject, remove: FieldSet, keep: FieldSet, schema: JsonSchema | undefined): void {
  pruneFields(object, remove, keep, schema, new Set(['metadata', 'apiVersion', 'kind']));
}

function pruneFields(object: PlainObject, remove: FieldSet, keep: FieldSet | undefined, schema: JsonSchema | undefined, keepAlways: ReadonlySet<string>): void {
  for (const [element, removeNode] of remove.children()) {
    if (!element.startsWith('f:')) continue;
    const name = element.slice(2);
    const value = object[name];
    if (value === undefined) continue;
    const keepNode = keep?.get(element);
    if (removeNode.member && !keepNode?.hasChildren()) {
      if (!keepAlways.has(name)) delete object[name];
      continue;
    }
    if (!removeNode.hasChildren()) continue;
    const wasEmpty = isEmptyContainer(value);
    pruneValue(value, removeNode, keepNode, childSchema(schema, name));
    if (!wasEmpty && isEmptyContainer(value) && !keepNode?.member && !keepAlways.has(name)) delete object[name];
  }
}

function pruneValue(value: unknown, remove: FieldSet, keep: FieldSet | undefined, schema: JsonSchema | undefined): void {
  if (Array.isArray(value)) pruneList(value, remove, keep, schema);
  else if (isGranularObject(value, schema)) pruneFields(value, remove, keep, schema, noNames);
}

const noNames: ReadonlySet<string> = new Set();

function pruneList(list: unknown[], remove: FieldSet, keep: FieldSet | undefined, schema: JsonSchema | undefined): void {
  const shape = listShape(schema);
  if (shape.kind === 'atomic') return;
  const named = nameItems(list, shape);
  if (typeof named === 'string') return;
  // An item's key fields name it; they go with the item, never on their own.
  const keyFields = new Set(shape.keys.map((key) => key.name));
  const dropped: number[] = [];
  for (const [element, removeNode] of remove.children()) {
    const position = named.positions.get(element);
    if (position === undefined) continue;
    const keepNode = keep?.get(element);
    if (removeNode.member && !keepNode?.hasChildren()) dropped.push(position);
    else if (shape.kind === 'map') pruneFields(list[position] as PlainObject, removeNode, keepNode, shape.items, keyFields);
  }
  for (const position of dropped.sort((a, b) => b - a)) list.splice(position, 1);
}
