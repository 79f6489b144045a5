// The pod-template-hash: a stable name for a pod template, so that equal templates map to the
// same ReplicaSet. FNV-1a (32 bits) over the template as canonical JSON (keys sorted, the hash
// label left out) plus the Deployment's collisionCount, written with Kubernetes' safe alphabet.
import { POD_TEMPLATE_HASH_LABEL } from './types.js';
import type { PodTemplate } from '../replicaset/types.js';

const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** Unset, as Kubernetes' semantic equality sees it: null, and empty lists and maps. */
function isUnset(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).every((key) => isUnset((value as Record<string, unknown>)[key]));
}

/**
 * JSON with sorted keys and unset fields left out, so that a template read back from the API
 * (kubectl sends `creationTimestamp: null`, defaulting may add `{}`) equals the one it came from.
 */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .filter((key) => !isUnset((value as Record<string, unknown>)[key]))
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

const canonicalTemplates = new WeakMap<object, string>();

/**
 * The template as compared and hashed: without the hash label. Templates of cached objects
 * never change, so each is written out once.
 */
export function templateWithoutHash(template: Readonly<PodTemplate> | undefined): string {
  if (template === undefined) return canonical({});
  let text = canonicalTemplates.get(template);
  if (text === undefined) canonicalTemplates.set(template, (text = writeWithoutHash(template)));
  return text;
}

function writeWithoutHash(template: Readonly<PodTemplate>): string {
  const copy = structuredClone(template as PodTemplate);
  const labels = copy.metadata?.labels;
  if (labels) delete labels[POD_TEMPLATE_HASH_LABEL];
  return canonical(copy);
}

function fnv1a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let hash = seed;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

export function podTemplateHash(template: Readonly<PodTemplate> | undefined, collisionCount?: number): string {
  let hash = fnv1a(new TextEncoder().encode(templateWithoutHash(template)));
  if (collisionCount !== undefined) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    hash = fnv1a(bytes, hash);
  }
  return [...String(hash)].map((digit) => SAFE_ALPHABET[digit.charCodeAt(0) % SAFE_ALPHABET.length]).join('');
}

/** Equal templates, the pod-template-hash label aside. */
export function equalIgnoreHash(a: Readonly<PodTemplate> | undefined, b: Readonly<PodTemplate> | undefined): boolean {
  return templateWithoutHash(a) === templateWithoutHash(b);
}
