// Strategic merge patch, content type application/strategic-merge-patch+json: what kubectl
// apply (client-side), edit, label, annotate and patch send. It is a JSON merge patch whose
// lists merge as the object's schema says (see smp-lists.ts), plus directives:
//   $patch: replace | delete | merge   in a map: take the map as given / delete it / merge (default)
//   $retainKeys: [fields]              clear every field of the live map not listed (union types)
//   $setElementOrder/<list>: [...]     the order of the merged list (kubectl apply, edit)
//   $deleteFromPrimitiveList/<list>    values to remove from a set-like list of plain values
// Where the schema is unknown, maps merge and lists are replaced, as in a JSON merge patch.
// Every value the patch adds is itself merged into nothing, so no directive or null reaches
// the stored object.
import { fieldSchema, listSemantics, type JsonSchema } from '../../api/schema-nav.js';
import { malformedPatch } from './errors.js';
import { cloneJson, getOwn, hasOwn, identityKey, isObject, setOwn, type JsonObject } from './json-value.js';
import { mergeList, mergeOrderedList } from './smp-lists.js';

const PATCH = '$patch';
const RETAIN_KEYS = '$retainKeys';
const SET_ELEMENT_ORDER = '$setElementOrder';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';

/** Applies a strategic merge patch and returns the new object; the inputs are not changed. */
export function applyStrategicMergePatch(current: unknown, patch: unknown, schema: JsonSchema | undefined): unknown {
  if (!isObject(patch)) throw malformedPatch('a strategic merge patch must be a JSON object');
  const original = isObject(current) ? cloneJson(current) : {};
  return mergeObject(original, patch, schema, '') ?? {};
}

function describe(path: string): string {
  return path === '' ? 'the patch' : path;
}

function childPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** See ObjectMerger in smp-lists.ts. */
function mergeObject(original: JsonObject | undefined, patch: JsonObject, schema: JsonSchema | undefined, path: string): JsonObject | undefined {
  const directive = mapDirective(patch, path);
  if (directive === 'delete') return undefined;
  const target = directive === 'replace' || original === undefined ? {} : original;
  retainKeys(target, patch, path);
  const ordered = mergeOrderedLists(target, patch, schema, path);
  for (const key of Object.keys(patch)) {
    if (ordered.has(key) || isDirective(key, path)) continue;
    mergeField(target, key, patch[key], schema, path);
  }
  deleteFromPrimitiveLists(target, patch, path);
  return target;
}

function mapDirective(patch: JsonObject, path: string): 'replace' | 'delete' | 'merge' | undefined {
  if (!hasOwn(patch, PATCH)) return undefined;
  const value = patch[PATCH];
  if (value === 'replace' || value === 'delete' || value === 'merge') return value;
  throw malformedPatch(`${describe(path)}: unknown $patch directive ${JSON.stringify(value)} (expected "replace", "delete" or "merge")`);
}

/** True for directive keys; a directive key without its `/<field>` part is malformed. */
function isDirective(key: string, path: string): boolean {
  if (key === PATCH || key === RETAIN_KEYS) return true;
  if (key.startsWith(SET_ELEMENT_ORDER)) return directiveField(key, SET_ELEMENT_ORDER, path) !== '';
  if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) return directiveField(key, DELETE_FROM_PRIMITIVE_LIST, path) !== '';
  return false;
}

/** The field a `$prefix/<field>` directive names. */
function directiveField(key: string, prefix: string, path: string): string {
  const field = key.startsWith(`${prefix}/`) ? key.slice(prefix.length + 1) : '';
  if (field === '') throw malformedPatch(`${describe(path)}: malformed directive ${JSON.stringify(key)}: expected ${prefix}/<field>`);
  return field;
}

function mergeField(target: JsonObject, key: string, value: unknown, schema: JsonSchema | undefined, path: string): void {
  if (value === null) {
    delete target[key];
    return;
  }
  const merged = mergeValue(getOwn(target, key), value, fieldSchema(schema, key), childPath(path, key));
  if (merged === undefined) delete target[key];
  else setOwn(target, key, merged);
}

function mergeValue(original: unknown, patch: unknown, schema: JsonSchema | undefined, path: string): unknown {
  if (isObject(patch)) {
    // A map field with patch strategy `replace` is taken as the patch gives it.
    const replaced = (listSemantics(schema).patchStrategy ?? '').split(',').includes('replace');
    return mergeObject(isObject(original) && !replaced ? original : undefined, patch, schema, path);
  }
  if (Array.isArray(patch)) return mergeList(Array.isArray(original) ? original : undefined, patch, schema, path, mergeObject);
  return patch;
}

/**
 * `$retainKeys`: the live map keeps only the listed fields. The patch must not set a field the
 * list leaves out (it would be cleared and set at once), as Kubernetes requires.
 */
function retainKeys(target: JsonObject, patch: JsonObject, path: string): void {
  if (!hasOwn(patch, RETAIN_KEYS)) return;
  const keys = patch[RETAIN_KEYS];
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string')) {
    throw malformedPatch(`${describe(path)}: $retainKeys must be a list of field names`);
  }
  const retained = new Set<string>(keys);
  for (const key of Object.keys(patch)) {
    if (patch[key] === null || isDirective(key, path) || retained.has(key)) continue;
    throw malformedPatch(`${describe(path)}: the patch sets "${key}", which its $retainKeys list does not name`);
  }
  for (const key of Object.keys(target)) {
    if (!retained.has(key)) delete target[key];
  }
}

/** Handles every `$setElementOrder/<field>`; returns the fields it merged (skipped afterwards). */
function mergeOrderedLists(target: JsonObject, patch: JsonObject, schema: JsonSchema | undefined, path: string): Set<string> {
  const done = new Set<string>();
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const field = directiveField(key, SET_ELEMENT_ORDER, path);
    const where = { path: childPath(path, field), directive: childPath(path, key) };
    const merged = mergeOrderedList(getOwn(target, field), getOwn(patch, field), patch[key], fieldSchema(schema, field), where, mergeObject);
    if (merged === undefined) continue;
    setOwn(target, field, merged);
    done.add(field);
  }
  return done;
}

/** `$deleteFromPrimitiveList/<field>: [values]` removes every occurrence of each value. */
function deleteFromPrimitiveLists(target: JsonObject, patch: JsonObject, path: string): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) continue;
    const field = directiveField(key, DELETE_FROM_PRIMITIVE_LIST, path);
    const values = patch[key];
    if (!Array.isArray(values)) throw malformedPatch(`${childPath(path, key)}: the value must be a list`);
    const live = getOwn(target, field);
    if (!Array.isArray(live)) continue;
    const doomed = new Set(values.map(identityKey));
    setOwn(
      target,
      field,
      live.filter((item) => !doomed.has(identityKey(item))),
    );
  }
}
