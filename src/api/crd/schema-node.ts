// A node of a CRD's structural schema (JSONSchemaProps), read defensively: the schema is user
// input, checked by structural.ts before any custom resource is served with it.
import { isObject } from '../meta.js';

export type SchemaNode = Record<string, unknown>;

export function child(node: SchemaNode, key: string): SchemaNode | undefined {
  const value = node[key];
  return isObject(value) ? value : undefined;
}

/** The schema of property `name`, when the node declares it. */
export function property(node: SchemaNode, name: string): SchemaNode | undefined {
  const properties = child(node, 'properties');
  const value = properties && Object.hasOwn(properties, name) ? properties[name] : undefined;
  return isObject(value) ? value : undefined;
}

export function schemaList(node: SchemaNode, key: string): SchemaNode[] {
  const value = node[key];
  return Array.isArray(value) ? value.filter(isObject) : [];
}

export const preservesUnknown = (node: SchemaNode): boolean => node['x-kubernetes-preserve-unknown-fields'] === true;
export const isIntOrString = (node: SchemaNode): boolean => node['x-kubernetes-int-or-string'] === true;
export const isEmbedded = (node: SchemaNode): boolean => node['x-kubernetes-embedded-resource'] === true;

/** Path text as Kubernetes prints it: `spec.ports[0].name`, `spec.labels[app]`. */
export function joinPath(base: string, name: string): string {
  return base === '' ? name : `${base}.${name}`;
}
