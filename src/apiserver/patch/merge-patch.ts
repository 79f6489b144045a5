// JSON Merge Patch (RFC 7386), content type application/merge-patch+json: objects merge
// member by member, null deletes a member, anything else (arrays included) replaces.
import { cloneJson, getOwn, isObject, setOwn, type JsonObject } from './json-value.js';

/** Applies a merge patch and returns the new document; the inputs are not changed. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return cloneJson(patch);
  const result = isObject(target) ? cloneJson(target) : {};
  mergeInto(result, patch);
  return result;
}

/** Merges `patch` into `target`, which the caller owns. */
function mergeInto(target: JsonObject, patch: JsonObject): void {
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) {
      delete target[key];
    } else if (isObject(value)) {
      const existing = getOwn(target, key);
      const merged = isObject(existing) ? existing : {};
      mergeInto(merged, value);
      setOwn(target, key, merged);
    } else {
      setOwn(target, key, cloneJson(value));
    }
  }
}
