// Helpers for defaulters: Kubernetes treats a missing field, null and "" alike as "unset".
import { isObject } from '../meta.js';

export type Obj = Record<string, unknown>;

/** Sets `object[key]` when it is missing, null or the empty string. */
export function setDefault(object: Obj, key: string, value: unknown): void {
  const current = object[key];
  if (current === undefined || current === null || current === '') object[key] = value;
}

/** The object at `object[key]`, created when missing (or not an object). */
export function ensureObject(object: Obj, key: string): Obj {
  const current = object[key];
  if (isObject(current)) return current;
  const created: Obj = {};
  object[key] = created;
  return created;
}
