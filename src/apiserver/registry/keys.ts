// Storage keys. Group-qualified like etcd's layout in Kubernetes: /registry/deployments.apps/ns/name.
import type { ResourceDefinition } from '../../api/resource.js';

function resourceSegment(def: ResourceDefinition): string {
  return def.group ? `${def.plural}.${def.group}` : def.plural;
}

/** The prefix of every object of a kind, or of a kind in one namespace. Ends with '/'. */
export function prefixFor(def: ResourceDefinition, namespace?: string): string {
  const base = `/registry/${resourceSegment(def)}/`;
  return def.namespaced && namespace ? `${base}${namespace}/` : base;
}

export function keyFor(def: ResourceDefinition, namespace: string | undefined, name: string): string {
  return `${prefixFor(def, def.namespaced ? namespace : undefined)}${name}`;
}
