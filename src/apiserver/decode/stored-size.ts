// How small the stored object of a write can at least be, known from the body alone: a write
// that cannot fit the store's object limit is refused before the work that would find out.
//
// A create or an apply records the writer's ownership of every field it sends in
// metadata.managedFields, one `"f:<key>":{},` (the key plus 8 bytes) per member of every map.
// A 1.3 MiB ConfigMap of 75,000 keys therefore stores as more than 2 MiB; before this check it
// was refused only after 300-1,100 ms of merging and field tracking that held every other
// client up. Update and patch record only the fields they change, so they are not estimated.
import { isObject } from '../../api/meta.js';

/** Top-level members the estimate leaves out: metadata is rewritten by the server, status may be dropped. */
const NOT_COUNTED = new Set(['apiVersion', 'kind', 'metadata', 'status']);

/**
 * A lower bound, in bytes, of the stored JSON of an object created or applied from `body`:
 * its counted members as compact JSON (strings without their escapes), plus, when the writer's
 * fields are tracked, one ownership entry per member of every map below them. One walk.
 */
export function storedSizeLowerBound(body: Record<string, unknown>, tracksFields: boolean): number {
  const perMember = tracksFields ? 8 : 0;
  let bytes = 0;
  const stack: unknown[] = [];
  for (const key of Object.keys(body)) {
    if (NOT_COUNTED.has(key)) continue;
    bytes += key.length + 3 + perMember; // "key": and a comma
    stack.push(body[key]);
  }
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') bytes += value.length + 2;
    else if (typeof value === 'number' || typeof value === 'boolean') bytes += String(value).length;
    else if (value === null) bytes += 4;
    else if (Array.isArray(value)) {
      bytes += 2 + value.length;
      for (const item of value) stack.push(item);
    } else if (isObject(value)) {
      bytes += 2;
      for (const key in value) {
        // "key": and a comma; the tracked form repeats the key as "f:key":{}, (8 more).
        bytes += key.length + 3 + (perMember === 0 ? 0 : key.length + perMember);
        stack.push(value[key]);
      }
    }
  }
  return bytes;
}
