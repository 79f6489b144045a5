// metadata.managedFields as a working list. An entry's fieldsV1 is decoded only when its set
// has to change, and entries that did not change are written back as the very same objects,
// so a write that touches a few fields costs little however many managers an object has.
import type { ManagedFieldsEntry } from '../../../api/meta.js';
import { FieldSet } from './field-set.js';
import { isCanonicalFieldsV1, type FieldsV1 } from './fields-v1.js';
import { isPlainObject } from './values.js';

export type Operation = 'Apply' | 'Update';

export interface TrackedEntry {
  manager: string;
  operation: Operation;
  subresource: string | undefined;
  apiVersion: string | undefined;
  time: string | undefined;
  /** The stored entry, written back unchanged while `set` is undefined and nothing else changed. */
  original: ManagedFieldsEntry | undefined;
  fieldsV1: FieldsV1;
  /** Decoded (and possibly changed) fields; undefined until needed. */
  set: FieldSet | undefined;
  /** `fieldsV1` is known to be spelled as toFieldsV1 writes it, so it may be edited as JSON. */
  canonical: boolean;
}

/** Reads a managedFields list; undefined when it is not a well-formed one. */
export function readEntries(list: unknown): TrackedEntry[] | undefined {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) return undefined;
  const entries: TrackedEntry[] = [];
  for (const raw of list) {
    const entry = readEntry(raw);
    if (!entry) return undefined;
    const same = findEntry(entries, entry.manager, entry.operation, entry.subresource);
    if (same) setFields(same, fieldsOf(same).union(fieldsOf(entry)));
    else entries.push(entry);
  }
  return entries;
}

function readEntry(raw: unknown): TrackedEntry | undefined {
  if (!isPlainObject(raw)) return undefined;
  const { manager, operation, subresource, apiVersion, time, fieldsType, fieldsV1 } = raw;
  if (operation !== 'Apply' && operation !== 'Update') return undefined;
  if (fieldsType !== undefined && fieldsType !== 'FieldsV1') return undefined;
  if (fieldsV1 !== undefined && !isPlainObject(fieldsV1)) return undefined;
  if (!optionalString(manager) || !optionalString(subresource) || !optionalString(apiVersion) || !optionalString(time)) return undefined;
  return {
    manager: manager ?? '',
    operation,
    subresource: subresource || undefined,
    apiVersion,
    time,
    original: raw as ManagedFieldsEntry,
    fieldsV1: fieldsV1 ?? {},
    set: undefined,
    canonical: false,
  };
}

function optionalString(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string';
}

/** Re-encodes every entry, so that client-sent fieldsV1 comes out in canonical form. */
export function normalizeEntries(entries: TrackedEntry[]): void {
  for (const entry of entries) setFields(entry, FieldSet.fromFieldsV1(entry.fieldsV1, true));
}

export function findEntry(entries: readonly TrackedEntry[], manager: string, operation: Operation, subresource: string | undefined): TrackedEntry | undefined {
  return entries.find((e) => e.manager === manager && e.operation === operation && e.subresource === (subresource || undefined));
}

export function newEntry(manager: string, operation: Operation, subresource: string | undefined): TrackedEntry {
  return {
    manager,
    operation,
    subresource: subresource || undefined,
    apiVersion: undefined,
    time: undefined,
    original: undefined,
    fieldsV1: {},
    set: undefined,
    canonical: true,
  };
}

export function fieldsOf(entry: TrackedEntry): FieldSet {
  entry.set ??= FieldSet.fromFieldsV1(entry.fieldsV1);
  return entry.set;
}

export function setFields(entry: TrackedEntry, set: FieldSet): void {
  entry.set = set;
  entry.original = undefined;
}

/**
 * The entry's fieldsV1 when it can be edited as JSON (see fields-v1.ts): not decoded into a
 * set, and canonical. Undefined means the FieldSet route (fieldsOf / setFields) must be used.
 */
export function editableFieldsV1(entry: TrackedEntry): FieldsV1 | undefined {
  if (entry.set) return undefined;
  if (!entry.canonical) {
    if (!isCanonicalFieldsV1(entry.fieldsV1)) return undefined;
    entry.canonical = true;
  }
  return entry.fieldsV1;
}

/** Replaces the entry's fields with canonical fieldsV1 JSON, the counterpart of setFields. */
export function setFieldsV1(entry: TrackedEntry, fieldsV1: FieldsV1): void {
  entry.fieldsV1 = fieldsV1;
  entry.set = undefined;
  entry.canonical = true;
  entry.original = undefined;
}

/** Marks the entry as rewritten (e.g. a new time or apiVersion) without touching its fields. */
export function touchEntry(entry: TrackedEntry): void {
  entry.original = undefined;
}

/** True when the entry owns a member of `changed`, or anything at or below a member of `removed`. */
export function entryAffected(entry: TrackedEntry, changed: FieldSet, removed: FieldSet): boolean {
  // A decoded set is already being rewritten; recomputing it is cheaper than checking.
  if (entry.set) return true;
  return ownsMember(entry.fieldsV1, changed) || ownsBelow(entry.fieldsV1, removed);
}

function ownsMember(json: Record<string, unknown>, set: FieldSet): boolean {
  for (const [element, node] of set.children()) {
    const sub = json[element];
    if (!isPlainObject(sub)) continue;
    if (node.member && (sub['.'] !== undefined || isEmptyObject(sub))) return true;
    if (node.hasChildren() && ownsMember(sub, node)) return true;
  }
  return false;
}

function ownsBelow(json: Record<string, unknown>, set: FieldSet): boolean {
  for (const [element, node] of set.children()) {
    const sub = json[element];
    if (!isPlainObject(sub)) continue;
    if (node.member || ownsBelow(sub, node)) return true;
  }
  return false;
}

function isEmptyObject(object: Record<string, unknown>): boolean {
  for (const _ in object) return false;
  return true;
}
