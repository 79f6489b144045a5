// The equalities of JSON values, in one place: every controller, the agent, the validators and
// the patch code compare objects with these, never with JSON.stringify (whose output depends on
// key order, so the same labels read back from the server compare unequal to the ones we built).

type Members = Record<string, unknown>;

function isMembers(value: unknown): value is Members {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function own(object: Members, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

/**
 * Structural equality of JSON values (Go's reflect.DeepEqual over decoded JSON): arrays in
 * order, objects by their set of members whatever the key order; a member set to undefined is
 * the same as an absent one. It allocates nothing: the apply path calls it for every field.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const objA = a as Members;
  const objB = b as Members;
  let count = 0;
  for (const key in objA) {
    if (objA[key] === undefined) continue;
    count++;
    if (!jsonEqual(objA[key], own(objB, key))) return false;
  }
  for (const key in objB) if (objB[key] !== undefined) count--;
  return count === 0;
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isMembers(value) && Object.keys(value).length === 0;
}

/**
 * Equality in the manner of Kubernetes' equality.Semantic.DeepEqual, for immutability checks
 * in validation: as jsonEqual, and besides a missing value, null, an empty list and an empty
 * map all count as equal.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => semanticEqual(item, b[i]));
  }
  if (isMembers(a) && isMembers(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) if (!semanticEqual(a[key], b[key])) return false;
    return true;
  }
  return false;
}
