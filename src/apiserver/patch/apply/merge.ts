// Merges an applied configuration into the live object, per schema: granular objects field by
// field, map-lists item by item (matched by their keys), sets by value, and everything else
// (scalars, atomic lists and maps) replaced by the applied value. A null in the applied
// configuration removes the field.
import type { JsonSchema } from '../../../api/schema-nav.js';
import { isUntrackedRootField, type FieldScope } from './field-scope.js';
import { listShape, nameItems, type NamedItems } from './list-elements.js';
import { getOwn } from '../json-value.js';
import { childSchema, isGranularObject, type PlainObject } from './values.js';

/**
 * Merges `applied` into `target` in place. `target` must be the caller's own copy of the live
 * object; applied values are adopted by reference. Top-level fields outside the scope (status
 * on the main resource, spec on the status subresource) keep their live values.
 */
export function mergeObject(target: PlainObject, applied: PlainObject, schema: JsonSchema | undefined, scope: FieldScope): void {
  for (const name of Object.keys(applied)) {
    if (name === 'apiVersion' || name === 'kind' || !isUntrackedRootField(name, scope)) {
      mergeField(target, name, applied[name], childSchema(schema, name));
    }
  }
}

function mergeField(target: PlainObject, name: string, applied: unknown, schema: JsonSchema | undefined): void {
  if (applied === undefined) return;
  if (applied === null) {
    delete target[name];
    return;
  }
  // An own member only: a field named "constructor" must not find Object's.
  target[name] = mergeValue(getOwn(target, name), applied, schema);
}

function mergeValue(live: unknown, applied: unknown, schema: JsonSchema | undefined): unknown {
  if (isGranularObject(live, schema) && isGranularObject(applied, schema)) {
    for (const name of Object.keys(applied)) mergeField(live, name, applied[name], childSchema(schema, name));
    return live;
  }
  if (Array.isArray(live) && Array.isArray(applied)) return mergeList(live, applied, schema);
  return applied;
}

function mergeList(live: unknown[], applied: unknown[], schema: JsonSchema | undefined): unknown[] {
  const shape = listShape(schema);
  if (shape.kind === 'atomic') return applied;
  const namedLive = nameItems(live, shape);
  const namedApplied = nameItems(applied, shape);
  // The applied side was checked when its field set was computed; a live list that cannot be
  // keyed (stored before its schema said so) is replaced, as an atomic list would be.
  if (typeof namedLive === 'string' || typeof namedApplied === 'string') return applied;
  const mergeItem = shape.kind === 'map' ? (a: unknown, b: unknown) => mergeValue(a, b, shape.items) : (_: unknown, b: unknown) => b;
  return interleave(live, namedLive, applied, namedApplied, mergeItem);
}

/**
 * Orders the merged list: items only in the live list keep their place, items in both follow
 * the applied order, and new items come where the applied list puts them relative to the rest.
 */
function interleave(
  live: unknown[],
  namedLive: NamedItems,
  applied: unknown[],
  namedApplied: NamedItems,
  mergeItem: (live: unknown, applied: unknown) => unknown,
): unknown[] {
  const out: unknown[] = [];
  let next = 0;
  const emitAppliedThrough = (last: number): void => {
    for (; next <= last; next++) {
      const position = namedLive.positions.get(namedApplied.elements[next] as string);
      out.push(position === undefined ? applied[next] : mergeItem(live[position], applied[next]));
    }
  };
  for (let i = 0; i < live.length; i++) {
    const position = namedApplied.positions.get(namedLive.elements[i] as string);
    if (position === undefined) out.push(live[i]);
    else if (position >= next) emitAppliedThrough(position);
  }
  emitAppliedThrough(applied.length - 1);
  return out;
}
