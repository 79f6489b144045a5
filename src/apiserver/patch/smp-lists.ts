// Lists in a strategic merge patch. The list's schema decides: with patch strategy `merge` and a
// merge key (containers by name, ports by containerPort) items merge one by one; with strategy
// `merge` and no key (finalizers) the list is a set of values; anything else is replaced whole.
// List-item directives: `{$patch: delete, <key>: v}` removes the items with that key and
// `{$patch: replace}` makes the other items the whole new list.
import { itemSchema, listSemantics, type JsonSchema } from '../../api/schema-nav.js';
import { malformedPatch } from './errors.js';
import { hasOwn, identityKey, isObject, type JsonObject } from './json-value.js';
import { orderMergedList, positionIn } from './smp-order.js';

/**
 * Merges a patch map into `original` (owned by the caller and changed in place; the same
 * object is returned unless the patch replaces it). Undefined means "delete this map".
 */
export type ObjectMerger = (original: JsonObject | undefined, patch: JsonObject, schema: JsonSchema | undefined, path: string) => JsonObject | undefined;

interface ListStrategy {
  merge: boolean;
  mergeKey: string | undefined;
  items: JsonSchema | undefined;
}

function listStrategy(schema: JsonSchema | undefined): ListStrategy {
  const semantics = listSemantics(schema);
  const strategies = (semantics.patchStrategy ?? '').split(',').map((s) => s.trim());
  return { merge: strategies.includes('merge'), mergeKey: semantics.patchMergeKey, items: itemSchema(schema) };
}

/** Merges a patch list into the live list (undefined when the field is new). */
export function mergeList(live: unknown[] | undefined, patch: unknown[], schema: JsonSchema | undefined, path: string, merger: ObjectMerger): unknown[] {
  const strategy = listStrategy(schema);
  if (!strategy.merge) return freshList(patch, strategy.items, path, merger);
  if (strategy.mergeKey !== undefined) return mergeKeyedList(live ?? [], patch, strategy, path, merger);
  return mergeValueSet(live ?? [], patch, path);
}

/** A patch value that lands where nothing was: merged into nothing, so directives and nulls inside it are consumed. */
function freshValue(value: unknown, schema: JsonSchema | undefined, path: string, merger: ObjectMerger): unknown {
  if (isObject(value)) return merger(undefined, value, schema, path);
  if (Array.isArray(value)) return mergeList(undefined, value, schema, path, merger);
  return value;
}

function freshList(patch: unknown[], items: JsonSchema | undefined, path: string, merger: ObjectMerger): unknown[] {
  const out: unknown[] = [];
  patch.forEach((item, i) => {
    // `{$patch: replace}` asks for what a replaced list does anyway; it is a marker, not an item.
    if (isObject(item) && item['$patch'] === 'replace') return;
    const value = freshValue(item, items, `${path}[${i}]`, merger);
    if (value !== undefined) out.push(value);
  });
  return out;
}

function keyIdentity(mergeKey: string): (item: unknown) => string | undefined {
  return (item) => (isObject(item) && hasOwn(item, mergeKey) ? identityKey(item[mergeKey]) : undefined);
}

interface SplitPatch {
  items: JsonObject[];
  deleted: Set<string>;
  replace: boolean;
}

function splitDirectives(patch: unknown[], mergeKey: string, path: string): SplitPatch {
  const split: SplitPatch = { items: [], deleted: new Set(), replace: false };
  patch.forEach((item, i) => {
    const where = `${path}[${i}]`;
    if (!isObject(item)) throw malformedPatch(`${where}: the items of this list merge by "${mergeKey}" and must be objects`);
    if (!hasOwn(item, '$patch')) {
      split.items.push(item);
      return;
    }
    const directive = item['$patch'];
    switch (directive) {
      case 'replace':
        split.replace = true;
        break;
      case 'merge':
        split.items.push(withoutMember(item, '$patch'));
        break;
      case 'delete':
        if (!hasOwn(item, mergeKey)) throw malformedPatch(`${where}: a "$patch: delete" item must carry the merge key "${mergeKey}"`);
        split.deleted.add(identityKey(item[mergeKey]));
        break;
      default:
        throw malformedPatch(`${where}: unknown $patch directive ${JSON.stringify(directive)} (expected "replace", "delete" or "merge")`);
    }
  });
  return split;
}

function withoutMember(object: JsonObject, member: string): JsonObject {
  const { [member]: _dropped, ...rest } = object;
  return rest;
}

function mergeKeyedList(live: unknown[], patch: unknown[], strategy: ListStrategy, path: string, merger: ObjectMerger): unknown[] {
  const mergeKey = strategy.mergeKey!;
  const identity = keyIdentity(mergeKey);
  const split = splitDirectives(patch, mergeKey, path);
  if (split.replace) return freshList(split.items, strategy.items, path, merger);
  const kept = live.filter((item) => {
    const id = identity(item);
    return id === undefined || !split.deleted.has(id);
  });
  const merged = kept.slice();
  const positions = new Map<string, number>();
  merged.forEach((item, i) => {
    const id = identity(item);
    if (id !== undefined && !positions.has(id)) positions.set(id, i);
  });
  split.items.forEach((item, i) => {
    const where = `${path}[${i}]`;
    const id = identity(item);
    if (id === undefined) throw malformedPatch(`${where}: the item has no merge key "${mergeKey}"`);
    const at = positions.get(id);
    const result = merger(at === undefined ? undefined : (merged[at] as JsonObject), item, strategy.items, where);
    // Only a `$patch: delete` map yields undefined, and those items were split off above.
    if (result === undefined) return;
    if (at !== undefined) merged[at] = result;
    else positions.set(id, merged.push(result) - 1);
  });
  // Live items are merged in place, so object identity finds their live position.
  return orderMergedList(
    merged,
    positionIn(split.items.map(identity), identity),
    positionIn(kept, (item) => item),
  );
}

function mergeValueSet(live: unknown[], patch: unknown[], path: string): unknown[] {
  patch.forEach((item, i) => {
    if (isObject(item) || Array.isArray(item)) {
      throw malformedPatch(`${path}[${i}]: this list has no merge key, so it merges as a set of plain values and cannot hold objects or lists`);
    }
  });
  const seen = new Set<string>();
  const merged = live.concat(patch).filter((item) => {
    const id = identityKey(item);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  return orderMergedList(merged, positionIn(patch.map(identityKey), identityKey), positionIn(live.map(identityKey), identityKey));
}

/**
 * `$setElementOrder/<field>`: merges the field's patch list (if any) and puts the result in the
 * directive's order, server-only items slotted in by their live order. Returns undefined when
 * the directive does not apply (the list does not merge, or the patch sets the field to a
 * non-list such as null), leaving the field to the ordinary merge.
 */
export function mergeOrderedList(
  live: unknown,
  patchList: unknown,
  order: unknown,
  schema: JsonSchema | undefined,
  where: { path: string; directive: string },
  merger: ObjectMerger,
): unknown[] | undefined {
  if (!Array.isArray(order)) throw malformedPatch(`${where.directive}: the value must be a list`);
  const strategy = listStrategy(schema);
  if (!strategy.merge || (patchList !== undefined && !Array.isArray(patchList))) return undefined;
  const liveList = Array.isArray(live) ? live : undefined;
  if (liveList === undefined && patchList === undefined) return undefined;
  const identity = strategy.mergeKey === undefined ? identityKey : keyIdentity(strategy.mergeKey);
  const orderIds = order.map((entry, i) => orderEntryIdentity(entry, strategy, identity, `${where.directive}[${i}]`));
  const merged = patchList === undefined ? liveList! : mergeList(liveList, patchList, schema, where.path, merger);
  if (patchList !== undefined) checkPatchFollowsOrder(patchList, orderIds, identity, where);
  // Keyed items are merged in place, so object identity finds their live position.
  const livePosition =
    strategy.mergeKey === undefined ? positionIn((liveList ?? []).map(identityKey), identityKey) : positionIn(liveList ?? [], (item) => item);
  return orderMergedList(merged, positionIn(orderIds, identity), livePosition);
}

function orderEntryIdentity(entry: unknown, strategy: ListStrategy, identity: (item: unknown) => string | undefined, where: string): string {
  if (strategy.mergeKey === undefined) {
    if (isObject(entry) || Array.isArray(entry)) throw malformedPatch(`${where}: the list merges as a set of values, so its order must list plain values`);
    return identityKey(entry);
  }
  const id = identity(entry);
  if (id === undefined) throw malformedPatch(`${where}: each entry must be an object with the merge key "${strategy.mergeKey}"`);
  return id;
}

/** The patch list's items must appear in the directive, in the same relative order. */
function checkPatchFollowsOrder(
  patchList: unknown[],
  orderIds: string[],
  identity: (item: unknown) => string | undefined,
  where: { path: string; directive: string },
): void {
  let at = 0;
  for (const item of patchList) {
    if (isObject(item) && (item['$patch'] === 'delete' || item['$patch'] === 'replace')) continue;
    const id = identity(item);
    while (at < orderIds.length && orderIds[at] !== id) at++;
    if (at === orderIds.length) {
      throw malformedPatch(`${where.path}: the items of the patch list do not follow the order given by ${where.directive}`);
    }
    at++;
  }
}
