// Builds the swagger 2.0 document (/openapi/v2) and the OpenAPI 3.0 documents per group/version
// (/openapi/v3/apis/<group>/<version>) from the registry and the schemas.
import type { ResourceDefinition } from '../resource.js';
import { field } from '../schemas/builders.js';
import { ListMeta, typeMetaFields } from '../schemas/meta.js';
import { DefinitionSet, refTo, type Flavor } from './definitions.js';
import { definitionName, pathsOf, tagOf, type OperationSpec, type PathSpec } from './operations.js';
import { PARAMETERS, PATCH_CONTENT_TYPES } from './parameters.js';
import { namedDefinitions } from '../schemas/builders.js';

type Node = Record<string, unknown>;

const RESPONSE_TYPES = ['application/json', 'application/yaml'];
const WATCH_TYPE = 'application/json;stream=watch';
const CODES = { '200': 'OK', '201': 'Created', '202': 'Accepted' } as const;

/** Publishes each kind and its List kind into `set`. */
function addKinds(set: DefinitionSet, defs: readonly ResourceDefinition[]): void {
  for (const def of defs) {
    const gvk = { group: def.group, version: def.version, kind: def.kind };
    const name = definitionName(gvk);
    set.add(name);
    const item = set.publish(namedDefinitions.get(name) as Node);
    set.addRaw(`${name}List`, {
      description: `${def.listKind} is a list of ${def.kind} objects.`,
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: set.publish(typeMetaFields.apiVersion as unknown as Node),
        items: { type: 'array', description: `List of ${def.plural}.`, items: item },
        kind: set.publish(typeMetaFields.kind as unknown as Node),
        metadata: set.publish(field(ListMeta, 'Standard list metadata.') as unknown as Node),
      },
      'x-kubernetes-group-version-kind': [{ group: def.group, kind: def.listKind, version: def.version }],
    });
  }
}

function ref(set: DefinitionSet, name: string): Node {
  return name in set.definitions ? refTo(name, set.flavor) : set.add(name);
}

function parameter(name: string, flavor: Flavor): Node {
  const spec = PARAMETERS[name];
  if (!spec) throw new Error(`unknown parameter ${name}`);
  const base: Node = { name, in: spec.in, description: spec.description, ...(spec.required ? { required: true } : {}) };
  return flavor === 'v2' ? { uniqueItems: true, type: spec.type, ...base } : { ...base, schema: { type: spec.type, uniqueItems: true } };
}

function extensions(op: OperationSpec): Node {
  return {
    'x-kubernetes-action': op.action,
    'x-kubernetes-group-version-kind': { group: op.gvk.group, kind: op.gvk.kind, version: op.gvk.version },
  };
}

function v3Content(types: readonly string[], schema: Node): Node {
  return Object.fromEntries(types.map((type) => [type, { schema }]));
}

function v3Operation(op: OperationSpec, set: DefinitionSet, patchTypes: readonly string[]): Node {
  const out: Node = { description: op.description, operationId: op.operationId, tags: [tagOf(op.gvk.group, op.gvk.version)] };
  if (op.query.length > 0) out['parameters'] = op.query.map((name) => parameter(name, 'v3'));
  if (op.body) {
    const types = op.body.patch ? patchTypes : ['*/*'];
    out['requestBody'] = { content: v3Content(types, ref(set, op.body.definition)), ...(op.body.optional ? {} : { required: true }) };
  }
  const schema = op.response === 'string' ? { type: 'string' } : ref(set, op.response);
  const types = op.response === 'string' ? ['text/plain'] : op.action === 'list' ? [...RESPONSE_TYPES, WATCH_TYPE] : RESPONSE_TYPES;
  const responses: Node = {};
  for (const code of ['200', ...op.alsoReturns] as const) responses[code] = { description: CODES[code], content: v3Content(types, schema) };
  responses['401'] = { description: 'Unauthorized' };
  return { ...out, responses, ...extensions(op) };
}

function v2Operation(op: OperationSpec, set: DefinitionSet, patchTypes: readonly string[]): Node {
  const parameters: Node[] = [];
  if (op.body) parameters.push({ name: 'body', in: 'body', ...(op.body.optional ? {} : { required: true }), schema: ref(set, op.body.definition) });
  parameters.push(...op.query.map((name) => parameter(name, 'v2')));
  const schema = op.response === 'string' ? { type: 'string' } : ref(set, op.response);
  const responses: Node = {};
  for (const code of ['200', ...op.alsoReturns] as const) responses[code] = { description: CODES[code], schema };
  responses['401'] = { description: 'Unauthorized' };
  return {
    description: op.description,
    consumes: op.body?.patch ? patchTypes : ['*/*'],
    produces: op.response === 'string' ? ['text/plain'] : op.action === 'list' ? [...RESPONSE_TYPES, WATCH_TYPE] : RESPONSE_TYPES,
    schemes: ['https'],
    tags: [tagOf(op.gvk.group, op.gvk.version)],
    operationId: op.operationId,
    ...(parameters.length > 0 ? { parameters } : {}),
    responses,
    ...extensions(op),
  };
}

function renderPaths(specs: readonly PathSpec[], set: DefinitionSet, patchTypes: readonly string[]): Node {
  const paths: Node = {};
  for (const spec of specs) {
    const item: Node = { parameters: [...spec.pathParams, 'pretty'].map((name) => parameter(name, set.flavor)) };
    for (const op of spec.operations) item[op.method] = set.flavor === 'v2' ? v2Operation(op, set, patchTypes) : v3Operation(op, set, patchTypes);
    paths[spec.path] = item;
  }
  return paths;
}

const SECURITY = { BearerToken: { type: 'apiKey', name: 'authorization', in: 'header', description: 'Bearer token authentication' } };

/**
 * What a document of kinds not built in (custom resources) does differently: how their schemas
 * are published, and the patch types their PATCH operations take.
 */
export interface DocumentKinds {
  addKinds(set: DefinitionSet, defs: readonly ResourceDefinition[]): void;
  patchTypes: readonly string[];
}

const BUILT_IN: DocumentKinds = { addKinds, patchTypes: PATCH_CONTENT_TYPES };

export function buildV3(defs: readonly ResourceDefinition[], kinds: DocumentKinds = BUILT_IN): Node {
  const set = new DefinitionSet('v3');
  kinds.addKinds(set, defs);
  const paths = renderPaths(pathsOf(defs), set, kinds.patchTypes);
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'unversioned' },
    paths,
    components: { schemas: sortKeys(set.definitions), securitySchemes: SECURITY },
    security: [{ BearerToken: [] }],
  };
}

export function buildV2(defs: readonly ResourceDefinition[], kinds: DocumentKinds = BUILT_IN): Node {
  const set = new DefinitionSet('v2');
  kinds.addKinds(set, defs);
  const paths = renderPaths(pathsOf(defs), set, kinds.patchTypes);
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: 'unversioned' },
    paths,
    definitions: sortKeys(set.definitions),
    securityDefinitions: SECURITY,
    security: [{ BearerToken: [] }],
  };
}

function sortKeys(record: Record<string, Node>): Record<string, Node> {
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, record[key] as Node]),
  );
}
