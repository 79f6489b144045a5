// Defensive readers for the loosely typed KubeObject fields the scheduler looks at. The objects
// come from the API (already validated), but the scheduler must never throw on a field shape
// it did not expect: a malformed field reads as absent.

export type Obj = Readonly<Record<string, unknown>>;

const EMPTY: Obj = Object.freeze({});
const NO_ITEMS: readonly unknown[] = Object.freeze([]);

export function record(value: unknown): Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : EMPTY;
}

export function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : NO_ITEMS;
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A string map such as labels or nodeSelector; non-string values are dropped. */
export function stringMap(value: unknown): Readonly<Record<string, string>> {
  const source = record(value);
  let clean = true;
  for (const key in source) if (typeof source[key] !== 'string') clean = false;
  if (clean) return source as Readonly<Record<string, string>>;
  const out: Record<string, string> = {};
  for (const key in source) {
    const v = source[key];
    if (typeof v === 'string') out[key] = v;
  }
  return out;
}
