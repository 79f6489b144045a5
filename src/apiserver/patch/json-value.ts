// Plain-JSON helpers shared by the patch types. Patches are untrusted input, so every read of a
// member goes through hasOwn (a patch naming "constructor" must not find Object's) and every
// write goes through setOwn (a patch naming "__proto__" must create a member, not swap the
// prototype).
import { isObject } from '../../api/meta.js';

export type JsonObject = Record<string, unknown>;

export { isObject };

export function hasOwn(object: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

export function getOwn(object: JsonObject, key: string): unknown {
  return hasOwn(object, key) ? object[key] : undefined;
}

export function setOwn(object: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    object[key] = value;
  }
}

/** A deep copy of a JSON value; the result shares nothing with the input. */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => cloneJson(item)) as T;
  if (!isObject(value)) return value;
  const copy: JsonObject = {};
  for (const key of Object.keys(value)) setOwn(copy, key, cloneJson(value[key]));
  return copy as T;
}

/**
 * A string that identifies a JSON value for set membership: equal values give equal strings
 * and the string 1 and the number 1 differ. Members are sorted so key order does not matter.
 */
export function identityKey(value: unknown): string {
  return JSON.stringify(value, sortedMembers) ?? 'undefined';
}

function sortedMembers(_key: string, value: unknown): unknown {
  if (!isObject(value)) return value;
  const sorted: JsonObject = {};
  for (const key of Object.keys(value).sort()) setOwn(sorted, key, value[key]);
  return sorted;
}
