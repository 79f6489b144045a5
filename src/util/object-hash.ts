// Stable names for JSON values, as Kubernetes names ReplicaSets and ControllerRevisions: FNV-1a
// (32 bits) over a canonical writing of the value, plus an optional collision count, spelt with
// Kubernetes' safe alphabet (no vowels, so no words; no look-alike characters).

const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** Unset, as Kubernetes' semantic equality sees it: null, and empty lists and maps. */
function isUnset(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).every((key) => isUnset((value as Record<string, unknown>)[key]));
}

/**
 * JSON with sorted keys and unset fields left out, so that a value read back from the API
 * (kubectl sends `creationTimestamp: null`, defaulting may add `{}`) equals the one it came from.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .filter((key) => !isUnset((value as Record<string, unknown>)[key]))
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

function fnv1a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let hash = seed;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** The safe-alphabet hash of canonical text; a collision count (little-endian uint32, as Go writes it) changes it. */
export function safeHash(canonicalText: string, collisionCount?: number): string {
  let hash = fnv1a(new TextEncoder().encode(canonicalText));
  if (collisionCount !== undefined) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    hash = fnv1a(bytes, hash);
  }
  return [...String(hash)].map((digit) => SAFE_ALPHABET[digit.charCodeAt(0) % SAFE_ALPHABET.length]).join('');
}
