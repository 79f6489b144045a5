// managedFields for ordinary writes (create, update, non-apply patch). The writer takes the
// fields whose value it changed; everyone else loses them, and loses what it removed. As in
// Kubernetes, an update never fails on ownership.
import type { JsonSchema } from '../../../api/schema-nav.js';
import type { KubeObject } from '../../../api/meta.js';
import { FieldSet } from './field-set.js';
import { releaseFieldsV1, unionFieldsV1, type FieldsV1 } from './fields-v1.js';
import { diffObjects, type FieldChanges } from './object-diff.js';
import { objectFieldSet } from './object-fields.js';
import { objectFieldsV1 } from './object-fields-v1.js';
import {
  editableFieldsV1,
  entryAffected,
  fieldsOf,
  findEntry,
  newEntry,
  normalizeEntries,
  readEntries,
  setFields,
  setFieldsV1,
  type TrackedEntry,
} from './managed-entries.js';
import { isPlainObject } from './values.js';
import { jsonEqual } from '../../../util/json-equal.js';
import { managedTime, writeEntries } from './write-entries.js';

export interface UpdateOptions {
  manager: string;
  operation: 'Update';
  /** Set for writes through a subresource ('status', 'scale'). */
  subresource?: string;
  schema: JsonSchema;
  /** The API version the client wrote in, recorded in the entry. */
  apiVersion: string;
  /** RFC 3339 time of the write. */
  now: string;
}

/**
 * Sets `updated.metadata.managedFields` for a write that turned `old` (undefined on create)
 * into `updated`. Managed fields the client sent in `updated` replace the stored ones, and the
 * single empty entry `[{}]` clears them, as in Kubernetes.
 */
export function updateManagedFields(old: KubeObject | undefined, updated: KubeObject, options: UpdateOptions): void {
  const entries = startingEntries(old, updated, options.subresource);
  const scope = { subresource: options.subresource };
  if (!old && entries.length === 0) {
    // A create with nobody to take fields from: the creator owns the object's whole field set,
    // written straight from the object instead of built as a FieldSet, merged and encoded.
    const created = objectFieldsV1(updated, options.schema, scope);
    if (!isEmptyJson(created)) {
      const own = newEntry(options.manager, 'Update', options.subresource);
      setFieldsV1(own, created);
      stamp(own, options);
      entries.push(own);
    }
    storeEntries(updated, entries);
    return;
  }
  const changes: FieldChanges = old
    ? diffObjects(old, updated, options.schema, scope)
    : { changed: objectFieldSet(updated, options.schema, scope), removed: new FieldSet() };
  releaseFields(entries, changes);
  if (!changes.changed.isEmpty()) {
    let own = findEntry(entries, options.manager, 'Update', options.subresource);
    if (!own) {
      own = newEntry(options.manager, 'Update', options.subresource);
      entries.push(own);
    }
    const json = editableFieldsV1(own);
    // A member root (never produced by the diff) is kept only by the FieldSet route, whose
    // entry `{}` is not empty; the JSON route could not tell it from an empty one.
    if (json && !changes.changed.member) setFieldsV1(own, unionFieldsV1(json, changes.changed));
    else setFields(own, fieldsOf(own).union(changes.changed));
    stamp(own, options);
  }
  storeEntries(updated, entries);
}

function stamp(entry: TrackedEntry, options: UpdateOptions): void {
  entry.apiVersion = options.apiVersion;
  entry.time = managedTime(options.now);
}

/** Takes changed fields away from every entry, and removed fields (with all below them). */
export function releaseFields(entries: readonly TrackedEntry[], changes: FieldChanges): void {
  const { changed, removed } = changes;
  if (changed.isEmpty() && removed.isEmpty()) return;
  for (const entry of entries) {
    if (!entryAffected(entry, changed, removed)) continue;
    const json = editableFieldsV1(entry);
    if (json) setFieldsV1(entry, releaseFieldsV1(json, changed, removed));
    else setFields(entry, fieldsOf(entry).difference(changed).recursiveDifference(removed));
  }
}

export function storeEntries(object: KubeObject, entries: readonly TrackedEntry[]): void {
  const list = writeEntries(entries);
  if (list.length > 0) object.metadata.managedFields = list;
  else delete object.metadata.managedFields;
}

/** The entries a write starts from: the stored ones, or those the client sent in their place. */
export function startingEntries(old: KubeObject | undefined, updated: KubeObject, subresource: string | undefined): TrackedEntry[] {
  const stored = old?.metadata.managedFields;
  const storedEntries = (): TrackedEntry[] => readEntries(stored) ?? [];
  const sent: unknown = updated.metadata.managedFields;
  // Subresource writes never set managedFields, and clients that drop the field (or send an
  // empty list) must not wipe it: only a non-empty list replaces what is stored.
  if (subresource || !Array.isArray(sent) || sent.length === 0 || sent === stored) return storedEntries();
  if (sent.length === 1 && isPlainObject(sent[0]) && Object.keys(sent[0]).length === 0) return [];
  if (stored !== undefined && jsonEqual(sent, stored)) return storedEntries();
  const parsed = readEntries(sent);
  if (!parsed) return storedEntries();
  normalizeEntries(parsed);
  return parsed;
}

function isEmptyJson(value: FieldsV1): boolean {
  for (const _ in value) return false;
  return true;
}
