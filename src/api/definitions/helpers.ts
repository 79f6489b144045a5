// Shared pieces of the ResourceDefinitions.
import type { KubeObject } from '../meta.js';
import { isObject } from '../meta.js';

/** Verbs Kubernetes advertises for an ordinary resource. */
export const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** The string at a dotted path ('' when missing), as Kubernetes' field selectors see it. */
export function fieldText(object: KubeObject, path: string): string {
  let current: unknown = object;
  for (const part of path.split('.')) {
    if (!isObject(current)) return '';
    current = current[part];
  }
  if (typeof current === 'string') return current;
  if (typeof current === 'number' || typeof current === 'boolean') return String(current);
  return '';
}

/** A field selector reading a dotted path. */
export function field(path: string): (object: KubeObject) => string {
  return (object) => fieldText(object, path);
}

export function noDefaults(): void {
  // Kinds without defaulters in Kubernetes.
}
