// Reads the structure of an object from its JSON Schema, including the Kubernetes extensions
// that tell how lists and maps merge: x-kubernetes-list-type / x-kubernetes-list-map-keys
// (server-side apply) and x-kubernetes-patch-strategy / x-kubernetes-patch-merge-key
// (strategic merge patch). Patch and apply code navigate with these helpers only.

/** A JSON Schema node as found in src/api/schemas (TypeBox output is plain JSON Schema). */
export type JsonSchema = Record<string, unknown>;

export interface ListSemantics {
  /** atomic: replaced whole; set: scalar items merged by value; map: object items merged by keys. */
  listType: 'atomic' | 'set' | 'map';
  /** For listType map: the item fields that identify an item (e.g. ['containerPort', 'protocol']). */
  mapKeys: string[];
  /** Strategic merge patch: the merge key (e.g. 'name'), when the list merges. */
  patchMergeKey?: string;
  /** Strategic merge patch strategy, e.g. 'merge', 'replace', 'merge,retainKeys'. */
  patchStrategy?: string;
}

function asSchema(value: unknown): JsonSchema | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonSchema) : undefined;
}

/** The schema of map values: additionalProperties, or TypeBox Record's single patternProperties entry. */
function valueSchema(schema: JsonSchema): JsonSchema | undefined {
  const additional = asSchema(schema['additionalProperties']);
  if (additional) return additional;
  const patterns = asSchema(schema['patternProperties']);
  return patterns ? asSchema(Object.values(patterns)[0]) : undefined;
}

/** The schema of field `name` of an object schema: a declared property, else the map value schema. */
export function fieldSchema(schema: JsonSchema | undefined, name: string): JsonSchema | undefined {
  if (!schema) return undefined;
  const declared = asSchema(asSchema(schema['properties'])?.[name]);
  if (declared) return declared;
  return valueSchema(schema);
}

/** The schema of the items of an array schema. */
export function itemSchema(schema: JsonSchema | undefined): JsonSchema | undefined {
  return schema ? asSchema(schema['items']) : undefined;
}

/** True when the schema marks a map (object with additionalProperties), e.g. labels. */
export function isMapSchema(schema: JsonSchema | undefined): boolean {
  return !!schema && !schema['properties'] && valueSchema(schema) !== undefined;
}

/** True for x-kubernetes-map-type: atomic or x-kubernetes-preserve-unknown-fields objects treated whole. */
export function isAtomicObject(schema: JsonSchema | undefined): boolean {
  return !!schema && schema['x-kubernetes-map-type'] === 'atomic';
}

/** How a list merges. Without annotations a list is atomic, as in Kubernetes. */
export function listSemantics(schema: JsonSchema | undefined): ListSemantics {
  if (!schema) return { listType: 'atomic', mapKeys: [] };
  const patchMergeKey = typeof schema['x-kubernetes-patch-merge-key'] === 'string' ? (schema['x-kubernetes-patch-merge-key'] as string) : undefined;
  const patchStrategy = typeof schema['x-kubernetes-patch-strategy'] === 'string' ? (schema['x-kubernetes-patch-strategy'] as string) : undefined;
  const declared = schema['x-kubernetes-list-type'];
  const keys = Array.isArray(schema['x-kubernetes-list-map-keys']) ? (schema['x-kubernetes-list-map-keys'] as string[]) : [];
  if (declared === 'map') return { listType: 'map', mapKeys: keys.length ? keys : patchMergeKey ? [patchMergeKey] : [], patchMergeKey, patchStrategy };
  if (declared === 'set') return { listType: 'set', mapKeys: [], patchMergeKey, patchStrategy };
  if (declared === 'atomic') return { listType: 'atomic', mapKeys: [], patchMergeKey, patchStrategy };
  if (patchMergeKey) return { listType: 'map', mapKeys: [patchMergeKey], patchMergeKey, patchStrategy };
  if (patchStrategy?.split(',').includes('merge')) return { listType: 'set', mapKeys: [], patchStrategy };
  return { listType: 'atomic', mapKeys: [], patchStrategy };
}
