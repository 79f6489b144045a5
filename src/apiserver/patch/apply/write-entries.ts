// Turns the working list back into metadata.managedFields: empty entries dropped, old Update
// entries folded together past Kubernetes' cap, and the list sorted as Kubernetes sorts it
// (Apply before Update, then oldest first), so that clients see a stable order.
import type { ManagedFieldsEntry } from '../../../api/meta.js';
import { fieldsOf, newEntry, setFields, type TrackedEntry } from './managed-entries.js';

/** Kubernetes keeps at most this many Update entries; older ones merge into one bucket. */
export const maxUpdateEntries = 10;
export const ancientChangesManager = 'ancient-changes';

export function writeEntries(entries: readonly TrackedEntry[]): ManagedFieldsEntry[] {
  const live = capUpdateEntries(entries.filter((entry) => !isEmptyEntry(entry)));
  return live.sort(compareEntries).map(encodeEntry);
}

function isEmptyEntry(entry: TrackedEntry): boolean {
  if (entry.set) return entry.set.isEmpty();
  for (const _ in entry.fieldsV1) return false;
  return true;
}

function capUpdateEntries(entries: TrackedEntry[]): TrackedEntry[] {
  // Every write gets here; almost every object is far below the cap, so count before sorting.
  let count = 0;
  for (const entry of entries) if (entry.operation === 'Update') count++;
  if (count <= maxUpdateEntries) return entries;
  const updates = entries.filter((entry) => entry.operation === 'Update').sort(byTime);
  let bucket = updates.find((entry) => entry.manager === ancientChangesManager && !entry.subresource);
  const folded = new Set<TrackedEntry>();
  let remaining = updates.length;
  for (const entry of updates) {
    if (remaining <= maxUpdateEntries) break;
    if (entry === bucket) continue;
    if (!bucket) {
      // The oldest entry becomes the bucket; that alone does not lower the count.
      bucket = newEntry(ancientChangesManager, 'Update', undefined);
      setFields(bucket, fieldsOf(entry));
      Object.assign(bucket, { apiVersion: entry.apiVersion, time: entry.time });
      folded.add(entry);
      continue;
    }
    setFields(bucket, fieldsOf(bucket).union(fieldsOf(entry)));
    bucket.time = entry.time;
    folded.add(entry);
    remaining--;
  }
  const kept = entries.filter((entry) => !folded.has(entry));
  if (bucket && !kept.includes(bucket)) kept.push(bucket);
  return kept;
}

function byTime(a: TrackedEntry, b: TrackedEntry): number {
  return (a.time ?? '').localeCompare(b.time ?? '');
}

function compareEntries(a: TrackedEntry, b: TrackedEntry): number {
  if (a.operation !== b.operation) return a.operation < b.operation ? -1 : 1;
  return (
    compareText(a.time, b.time) || compareText(a.manager, b.manager) || compareText(a.apiVersion, b.apiVersion) || compareText(a.subresource, b.subresource)
  );
}

function compareText(a: string | undefined, b: string | undefined): number {
  const x = a ?? '';
  const y = b ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

function encodeEntry(entry: TrackedEntry): ManagedFieldsEntry {
  if (entry.original) return entry.original;
  const out: ManagedFieldsEntry = { manager: entry.manager, operation: entry.operation };
  if (entry.apiVersion !== undefined) out.apiVersion = entry.apiVersion;
  if (entry.time !== undefined) out.time = entry.time;
  out.fieldsType = 'FieldsV1';
  out.fieldsV1 = entry.set ? entry.set.toFieldsV1() : entry.fieldsV1;
  if (entry.subresource) out.subresource = entry.subresource;
  return out;
}

const secondsUtc = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const fractionUtc = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/;

/** Kubernetes records managedFields times to the second, in UTC. */
export function managedTime(now: string): string {
  if (secondsUtc.test(now)) return now;
  if (fractionUtc.test(now)) return now.replace(/\.\d+Z$/, 'Z');
  const parsed = new Date(now);
  if (Number.isNaN(parsed.getTime())) return now;
  return parsed.toISOString().replace(/\.\d+Z$/, 'Z');
}
