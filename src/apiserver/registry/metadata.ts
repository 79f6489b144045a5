// System-owned metadata: names from generateName, uid, timestamps, generation, and what a
// client may not change on update.
import { randomUUID } from 'node:crypto';
import { metaTime, type KubeObject } from '../../api/meta.js';

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

/** The parts of an object that are not metadata or status: what `generation` counts changes of. */
function specPart(object: KubeObject): string {
  const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = object;
  return JSON.stringify(rest);
}

/** Carries the system fields over from the stored object and bumps generation on spec changes. */
export function carryOverMetadata(updated: KubeObject, old: KubeObject): void {
  const meta = updated.metadata;
  const previous = old.metadata;
  meta.uid = previous.uid;
  meta.creationTimestamp = previous.creationTimestamp;
  meta.generateName = previous.generateName;
  if (meta.generateName === undefined) delete meta.generateName;
  meta.generation = (previous.generation ?? 1) + (specPart(updated) !== specPart(old) ? 1 : 0);
  if (previous.deletionTimestamp) {
    meta.deletionTimestamp = previous.deletionTimestamp;
    if (previous.deletionGracePeriodSeconds !== undefined) meta.deletionGracePeriodSeconds = previous.deletionGracePeriodSeconds;
  } else {
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
  }
}

/** True when two versions differ in anything but resourceVersion and managedFields timestamps. */
export function sameContent(a: KubeObject, b: KubeObject): boolean {
  return JSON.stringify(comparable(a)) === JSON.stringify(comparable(b));
}

function comparable(object: KubeObject): KubeObject {
  const { resourceVersion: _rv, managedFields, ...meta } = object.metadata;
  const fields = managedFields?.map(({ time: _t, ...entry }) => entry);
  return { ...object, metadata: { ...meta, managedFields: fields } };
}
