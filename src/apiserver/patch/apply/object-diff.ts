// The fields that differ between two versions of an object, per schema: what the new version
// added or changed (ownership moves to the writer) and what it removed (ownership ends for
// everyone). This runs on every write, so it walks both objects once and only builds sets
// for the parts that differ.
import type { JsonSchema } from '../../../api/schema-nav.js';
import { FieldSet } from './field-set.js';
import { isUntrackedMetadataField, isUntrackedRootField, type FieldScope } from './field-scope.js';
import { itemElement, listShape, nameItems, type ListShape } from './list-elements.js';
import { collectValue } from './object-fields.js';
import { getOwn } from '../json-value.js';
import { fieldElement } from './path-element.js';
import { childSchema, isEmptyContainer, isGranularObject, isPlainObject, type PlainObject } from './values.js';
import { jsonEqual } from '../../../util/json-equal.js';

export interface FieldChanges {
  /** Leaves (and associative-list items) that are new or have a new value. */
  changed: FieldSet;
  /** Roots of removed subtrees: a member here ends ownership of everything below it. */
  removed: FieldSet;
}

interface DiffWalk extends FieldChanges {
  /** Path of the values being compared; see currentPath. */
  path: Step[];
}

/**
 * A list item on the walk's path whose element is not spelled yet: most items of a write are
 * unchanged, and spelling an element means encoding its key fields as JSON.
 */
interface PendingItem {
  item: unknown;
  shape: ListShape;
}

type Step = string | PendingItem;

/** The walk's path as elements, spelling pending items (in place, so only once). */
function currentPath(walk: DiffWalk): string[] {
  const path = walk.path;
  for (let i = 0; i < path.length; i++) {
    const step = path[i] as Step;
    if (typeof step !== 'string') path[i] = itemElement(step.item, step.shape);
  }
  return path as string[];
}

const noSkip = (): boolean => false;

/** Compares two versions of a whole object within `scope`. */
export function diffObjects(before: PlainObject, after: PlainObject, schema: JsonSchema | undefined, scope: FieldScope): FieldChanges {
  const walk: DiffWalk = { changed: new FieldSet(), removed: new FieldSet(), path: [] };
  const skipRoot = (name: string): boolean => isUntrackedRootField(name, scope) || name === 'metadata';
  diffFields(before, after, schema, walk, skipRoot);
  const metaBefore = isPlainObject(before['metadata']) ? before['metadata'] : {};
  const metaAfter = isPlainObject(after['metadata']) ? after['metadata'] : {};
  walk.path.push(fieldElement('metadata'));
  diffFields(metaBefore, metaAfter, childSchema(schema, 'metadata'), walk, isUntrackedMetadataField);
  walk.path.pop();
  return { changed: walk.changed, removed: walk.removed };
}

function diffFields(before: PlainObject, after: PlainObject, schema: JsonSchema | undefined, walk: DiffWalk, skip: (name: string) => boolean): void {
  for (const name in after) {
    const next = after[name];
    const previous = getOwn(before, name);
    // Most fields of a write are unchanged scalars: done before any path or schema work.
    if (next === previous || next === undefined || skip(name)) continue;
    walk.path.push(fieldElement(name));
    if (previous === undefined) addValue(next, childSchema(schema, name), walk);
    else diffValue(previous, next, childSchema(schema, name), walk);
    walk.path.pop();
  }
  for (const name in before) {
    if (before[name] === undefined || getOwn(after, name) !== undefined || skip(name)) continue;
    walk.path.push(fieldElement(name));
    walk.removed.insert(currentPath(walk));
    walk.path.pop();
  }
}

function diffValue(before: unknown, after: unknown, schema: JsonSchema | undefined, walk: DiffWalk): void {
  if (before === after) return;
  if (isGranularObject(before, schema) && isGranularObject(after, schema)) {
    diffFields(before, after, schema, walk, noSkip);
    if (isEmptyContainer(after) && !isEmptyContainer(before)) walk.changed.insert(currentPath(walk));
    return;
  }
  if (Array.isArray(before) && Array.isArray(after) && diffLists(before, after, schema, walk)) return;
  if (jsonEqual(before, after)) return;
  // A container replaced by something else: whatever was owned inside it is gone.
  if (typeof before === 'object' && before !== null) walk.removed.insert(currentPath(walk));
  addValue(after, schema, walk);
}

/** Diffs associative lists item by item; false when the lists must be compared whole. */
function diffLists(before: unknown[], after: unknown[], schema: JsonSchema | undefined, walk: DiffWalk): boolean {
  const shape = listShape(schema);
  if (shape.kind === 'atomic') return false;
  if (sameItemsInOrder(before, after, shape)) {
    if (shape.kind === 'map') diffItemsInPlace(before, after, shape, walk);
    return true;
  }
  const namedBefore = nameItems(before, shape);
  const namedAfter = nameItems(after, shape);
  if (typeof namedBefore === 'string' || typeof namedAfter === 'string') return false;
  for (let i = 0; i < after.length; i++) {
    walk.path.push(namedAfter.elements[i] as string);
    const j = namedBefore.positions.get(namedAfter.elements[i] as string);
    if (j === undefined) {
      addItem(after[i], shape.kind === 'map', shape.items, walk);
    } else if (shape.kind === 'map') {
      diffFields(before[j] as PlainObject, after[i] as PlainObject, shape.items, walk, noSkip);
    }
    walk.path.pop();
  }
  for (const element of namedBefore.elements) {
    if (namedAfter.positions.has(element)) continue;
    walk.path.push(element);
    walk.removed.insert(currentPath(walk));
    walk.path.pop();
  }
  if (after.length === 0 && before.length > 0) walk.changed.insert(currentPath(walk));
  return true;
}

/**
 * True when both lists name the same items in the same order, items that nameItems would name
 * without error. The usual write leaves a list's items where they were, and then the items
 * pair up by position, without naming every item of both lists and indexing them.
 */
function sameItemsInOrder(before: unknown[], after: unknown[], shape: ListShape): boolean {
  // Longer lists take the general route, whose duplicate check does not grow quadratically.
  if (before.length !== after.length || after.length > 8) return false;
  for (let i = 0; i < after.length; i++) {
    if (!sameItem(before[i], after[i], shape)) return false;
    for (let j = 0; j < i; j++) if (sameItem(after[j], after[i], shape)) return false;
  }
  return true;
}

/** Whether two items get the same element (and can be named at all). */
function sameItem(a: unknown, b: unknown, shape: ListShape): boolean {
  if (shape.kind !== 'map') return a === b && isKeyScalar(a);
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  for (const key of shape.keys) {
    const value = a[key.name] ?? key.fallback;
    if (!isKeyScalar(value) || value !== (b[key.name] ?? key.fallback)) return false;
  }
  return true;
}

/** A value whose JSON spelling is equal exactly when the values are (===). */
function isKeyScalar(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function diffItemsInPlace(before: unknown[], after: unknown[], shape: ListShape, walk: DiffWalk): void {
  for (let i = 0; i < after.length; i++) {
    if (before[i] === after[i]) continue;
    walk.path.push({ item: after[i], shape });
    diffFields(before[i] as PlainObject, after[i] as PlainObject, shape.items, walk, noSkip);
    walk.path.pop();
  }
}

function addValue(value: unknown, schema: JsonSchema | undefined, walk: DiffWalk): void {
  const path = currentPath(walk);
  collectValue(value, schema, walk.changed.descend(path), { path, strict: false });
}

function addItem(item: unknown, isMapItem: boolean, schema: JsonSchema | undefined, walk: DiffWalk): void {
  const path = currentPath(walk);
  const node = walk.changed.descend(path);
  node.member = true;
  if (isMapItem && isPlainObject(item) && !isEmptyContainer(item)) collectValue(item, schema, node, { path, strict: false });
}
