// Where a kind carries pod templates (Deployment's spec.template, a PyTorchJob's
// spec.pytorchReplicaSpecs.*.template, ...), found from the kind's own schema: every node that
// is core/v1 PodTemplateSpec. A kind added later with a template is covered without a list here
// to keep up to date.
import { isObject, type KubeObject } from '../../../api/meta.js';
import type { ResourceDefinition } from '../../../api/resource.js';
import { DEFINITION_KEY } from '../../../api/schemas/builders.js';

const POD_TEMPLATE_SPEC = 'io.k8s.api.core.v1.PodTemplateSpec';
/** A path step that stands for every value of a map or every item of a list. */
const EACH = '*';
/** Far deeper than any template sits; only a guard against a schema that refers to itself. */
const MAX_DEPTH = 12;

type SchemaNode = Record<string, unknown>;

const pathsByKind = new WeakMap<ResourceDefinition, readonly string[][]>();

/** The schema paths of the kind's pod templates ([] for kinds without one, Pod included). */
export function podTemplatePaths(def: ResourceDefinition): readonly string[][] {
  let paths = pathsByKind.get(def);
  if (!paths) {
    paths = [];
    collect(def.schema as SchemaNode, [], paths as string[][]);
    pathsByKind.set(def, paths);
  }
  return paths;
}

function collect(node: SchemaNode, path: string[], found: string[][]): void {
  if (node[DEFINITION_KEY] === POD_TEMPLATE_SPEC) {
    found.push(path);
    return;
  }
  if (path.length >= MAX_DEPTH) return;
  const properties = node['properties'];
  if (isObject(properties)) {
    for (const [name, child] of Object.entries(properties)) if (isObject(child)) collect(child, [...path, name], found);
  }
  for (const child of [node['additionalProperties'], node['items']]) {
    if (isObject(child)) collect(child, [...path, EACH], found);
  }
  const patterns = node['patternProperties'];
  if (isObject(patterns)) for (const child of Object.values(patterns)) if (isObject(child)) collect(child, [...path, EACH], found);
}

/** The pod templates an object of the kind carries, with the field path of each. */
export function podTemplatesOf(def: ResourceDefinition, object: KubeObject): { field: string; template: Record<string, unknown> }[] {
  const found: { field: string; template: Record<string, unknown> }[] = [];
  for (const path of podTemplatePaths(def)) walk(object, path, '', found);
  return found;
}

function walk(value: unknown, path: readonly string[], field: string, found: { field: string; template: Record<string, unknown> }[]): void {
  if (path.length === 0) {
    if (isObject(value)) found.push({ field, template: value });
    return;
  }
  const [step, ...rest] = path as [string, ...string[]];
  if (step !== EACH) {
    if (isObject(value)) walk(value[step], rest, field ? `${field}.${step}` : step, found);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => walk(item, rest, `${field}[${i}]`, found));
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) walk(item, rest, `${field}.${key}`, found);
  }
}
