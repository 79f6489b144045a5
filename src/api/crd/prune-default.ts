// Pruning and defaulting of custom resources, as Kubernetes' structural schema does them:
// fields the schema does not declare are dropped (unless x-kubernetes-preserve-unknown-fields),
// nulls where the schema does not allow them are dropped, and then `default`s fill what is
// missing, top down. Kubernetes defaults both on write and when reading from storage.
import { isObject } from '../meta.js';
import { child, isEmbedded, joinPath, preservesUnknown, property, type SchemaNode } from './schema-node.js';

/** Fields every object keeps whatever its schema says: the root's and an embedded object's. */
const OBJECT_ENVELOPE = new Set(['apiVersion', 'kind', 'metadata']);

/** Drops unknown fields and disallowed nulls in place; returns their paths (for Warn and Strict). */
export function prune(schema: SchemaNode, value: unknown, path = '', isRoot = true): string[] {
  const unknown: string[] = [];
  pruneNode(schema, value, path, isRoot, unknown);
  return unknown;
}

function pruneNode(schema: SchemaNode, value: unknown, path: string, keepEnvelope: boolean, unknown: string[]): void {
  if (Array.isArray(value)) {
    const items = child(schema, 'items');
    if (items) value.forEach((item, i) => pruneNode(items, item, `${path}[${i}]`, isEmbedded(items), unknown));
    return;
  }
  if (!isObject(value)) return;
  const additional = child(schema, 'additionalProperties');
  const envelope = keepEnvelope || isEmbedded(schema);
  for (const name of Object.keys(value)) {
    const fieldSchema = property(schema, name);
    const fieldPath = fieldSchema || !additional ? joinPath(path, name) : `${path}[${name}]`;
    const target = fieldSchema ?? additional;
    if (!target) {
      if (preservesUnknown(schema) || (envelope && OBJECT_ENVELOPE.has(name))) continue;
      unknown.push(fieldPath);
      delete value[name];
      continue;
    }
    if (value[name] === null && target['nullable'] !== true) {
      delete value[name];
      continue;
    }
    pruneNode(target, value[name], fieldPath, isEmbedded(target), unknown);
  }
}

/** Fills `default`s where a field is missing, in place, then descends into what is there. */
export function applyDefaults(schema: SchemaNode, value: unknown): void {
  if (Array.isArray(value)) {
    const items = child(schema, 'items');
    if (items) for (const item of value) applyDefaults(items, item);
    return;
  }
  if (!isObject(value)) return;
  const properties = child(schema, 'properties');
  if (properties) {
    for (const [name, fieldSchema] of Object.entries(properties)) {
      if (!isObject(fieldSchema)) continue;
      if (value[name] === undefined && fieldSchema['default'] !== undefined) value[name] = structuredClone(fieldSchema['default']);
      if (value[name] !== undefined) applyDefaults(fieldSchema, value[name]);
    }
  }
  const additional = child(schema, 'additionalProperties');
  if (additional) {
    for (const name of Object.keys(value)) if (!properties || !Object.hasOwn(properties, name)) applyDefaults(additional, value[name]);
  }
}
