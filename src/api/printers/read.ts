// Tolerant readers for the untyped parts of stored objects. A printer must never throw on an
// odd object (that would fail a whole `kubectl get`), so a missing or mistyped field reads as
// the zero value Kubernetes' Go structs would have.

export type Json = Record<string, unknown>;

const EMPTY: Json = Object.freeze({}) as Json;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `path` under `root`, or undefined; JSON null (Go's nil) also reads as undefined. */
export function at(root: unknown, ...path: string[]): unknown {
  let value = root;
  for (const key of path) {
    if (!isRecord(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value === null ? undefined : value;
}

export function recordAt(root: unknown, ...path: string[]): Json {
  const value = at(root, ...path);
  return isRecord(value) ? value : EMPTY;
}

export function stringAt(root: unknown, ...path: string[]): string {
  const value = at(root, ...path);
  return typeof value === 'string' ? value : '';
}

export function numberAt(root: unknown, ...path: string[]): number {
  const value = at(root, ...path);
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

export function listAt(root: unknown, ...path: string[]): unknown[] {
  const value = at(root, ...path);
  return Array.isArray(value) ? value : [];
}

/** A map of strings (labels, nodeSelector, selector); non-string entries are dropped. */
export function stringMapAt(root: unknown, ...path: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const value = recordAt(root, ...path);
  for (const key of Object.keys(value)) {
    const entry = value[key];
    if (typeof entry === 'string') out[key] = entry;
  }
  return out;
}
