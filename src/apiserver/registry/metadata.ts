// System-owned metadata: names from generateName, uid, timestamps, generation, and what a
// client may not change on update.
import { randomUUID } from 'node:crypto';
import { metaTime, type KubeObject } from '../../api/meta.js';
import { getOwn } from '../patch/json-value.js';
import { jsonEqual } from '../../util/json-equal.js';

const NAME_SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** Kubernetes' generateName suffix: five characters that never spell words. */
export function generatedName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += NAME_SUFFIX_ALPHABET[Math.floor(Math.random() * NAME_SUFFIX_ALPHABET.length)];
  return prefix + suffix;
}

/** metav1.Time of `date`, or of now (cached per second: every write asks several times). */
export function timestamp(date?: Date): string {
  if (date) return metaTime(date);
  const second = Math.floor(Date.now() / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastStamp = metaTime(new Date(second * 1000));
  }
  return lastStamp;
}

let lastSecond = -1;
let lastStamp = '';

export function initialiseMetadata(object: KubeObject, now: string): void {
  const meta = object.metadata;
  if (!meta.name && meta.generateName) meta.name = generatedName(meta.generateName);
  meta.uid = randomUUID();
  meta.creationTimestamp = now;
  meta.generation = 1;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.resourceVersion;
}

// What `generation` counts changes of: everything but these. Compared as values, in place: key
// order is no change (as Kubernetes' semantic equality), and no serialization is needed.
const NOT_SPEC = new Set(['metadata', 'status', 'apiVersion', 'kind']);
// A custom resource without a status subresource counts its status too, as Kubernetes does.
const NOT_SPEC_WITH_STATUS = new Set(['metadata', 'apiVersion', 'kind']);

function sameSpec(a: KubeObject, b: KubeObject, statusIsSpec: boolean): boolean {
  return sameFieldsExcept(a, b, statusIsSpec ? NOT_SPEC_WITH_STATUS : NOT_SPEC);
}

/** Whether two objects hold equal values under every key but `skip`'s. */
function sameFieldsExcept(first: object, second: object, skip: ReadonlySet<string>): boolean {
  const a = first as Record<string, unknown>;
  const b = second as Record<string, unknown>;
  for (const key in a) if (!skip.has(key) && !jsonEqual(a[key], getOwn(b, key))) return false;
  for (const key in b) if (!skip.has(key) && b[key] !== undefined && !Object.hasOwn(a, key)) return false;
  return true;
}

/** Carries the system fields over from the stored object and bumps generation on spec changes. */
export function carryOverMetadata(updated: KubeObject, old: KubeObject, statusIsSpec = false): void {
  const meta = updated.metadata;
  const previous = old.metadata;
  meta.uid = previous.uid;
  meta.creationTimestamp = previous.creationTimestamp;
  meta.generateName = previous.generateName;
  if (meta.generateName === undefined) delete meta.generateName;
  meta.generation = (previous.generation ?? 1) + (sameSpec(updated, old, statusIsSpec) ? 0 : 1);
  if (previous.deletionTimestamp) {
    meta.deletionTimestamp = previous.deletionTimestamp;
    if (previous.deletionGracePeriodSeconds !== undefined) meta.deletionGracePeriodSeconds = previous.deletionGracePeriodSeconds;
  } else {
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
  }
}

const METADATA = new Set(['metadata']);
const UNCOMPARED_METADATA = new Set(['resourceVersion', 'managedFields']);
const TIME = new Set(['time']);

/** True when two versions differ in nothing but resourceVersion and managedFields timestamps. */
export function sameContent(a: KubeObject, b: KubeObject): boolean {
  if (!sameFieldsExcept(a, b, METADATA) || !sameFieldsExcept(a.metadata, b.metadata, UNCOMPARED_METADATA)) return false;
  const fieldsA = a.metadata.managedFields ?? [];
  const fieldsB = b.metadata.managedFields ?? [];
  if (fieldsA.length !== fieldsB.length) return false;
  return fieldsA.every((entry, i) => sameFieldsExcept(entry, fieldsB[i] ?? {}, TIME));
}
