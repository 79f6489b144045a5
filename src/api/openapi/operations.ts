// The REST operations of each resource, in a form independent of the OpenAPI version:
// which paths exist, which verbs they take, their parameters, bodies, responses and the
// x-kubernetes-* extensions clients match on.
import { groupVersionPath } from '../group-version.js';
import type { ResourceDefinition } from '../resource.js';
import { subresourcesFor } from '../registry.js';
import { apiPackage } from '../schemas/meta.js';
import { DELETE_COLLECTION_PARAMS, DELETE_PARAMS, LIST_PARAMS, LOG_PARAMS, PATCH_PARAMS, WRITE_PARAMS } from './parameters.js';

export interface Gvk {
  group: string;
  version: string;
  kind: string;
}

export interface OperationSpec {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  action: string;
  operationId: string;
  description: string;
  gvk: Gvk;
  query: string[];
  /** Definition name of the request body; 'patch' bodies take every patch content type. */
  body?: { definition: string; patch?: boolean; optional?: boolean };
  /** Definition name of the response body, or 'string' for text (logs). */
  response: string;
  /** Extra success codes besides 200. */
  alsoReturns: Array<'201' | '202'>;
}

export interface PathSpec {
  path: string;
  pathParams: string[];
  operations: OperationSpec[];
}

export const STATUS_DEF = 'io.k8s.apimachinery.pkg.apis.meta.v1.Status';
export const DELETE_OPTIONS_DEF = 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions';
export const PATCH_DEF = 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch';

export function definitionName(gvk: Gvk): string {
  return `${apiPackage(gvk.group, gvk.version)}.${gvk.kind}`;
}

/** The group version's OpenAPI v3 document name: its path without the leading slash (`apis/apps/v1`). */
export function openApiDocumentName(group: string, version: string): string {
  return groupVersionPath({ group, version }).slice(1);
}

/** CoreV1, AppsV1, CoordinationV1 ... as used in Kubernetes operation IDs. */
function idPrefix(group: string, version: string): string {
  const name = group === '' ? 'core' : (group.split('.')[0] ?? group);
  const cap = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
  return `${cap(name)}${cap(version)}`;
}

export function tagOf(group: string, version: string): string {
  return `${group === '' ? 'core' : (group.split('.')[0] ?? group)}_${version}`;
}

function mainPaths(def: ResourceDefinition): PathSpec[] {
  const base = groupVersionPath(def);
  const scope = def.namespaced ? `${base}/namespaces/{namespace}` : base;
  const scopeParams = def.namespaced ? ['namespace'] : [];
  const gvk = { group: def.group, version: def.version, kind: def.kind };
  const id = `${idPrefix(def.group, def.version)}${def.namespaced ? 'Namespaced' : ''}${def.kind}`;
  const self = definitionName(gvk);
  const list = `${self}List`;
  const collection: OperationSpec[] = [
    {
      method: 'get',
      action: 'list',
      operationId: `list${id}`,
      description: `list or watch objects of kind ${def.kind}`,
      gvk,
      query: LIST_PARAMS,
      response: list,
      alsoReturns: [],
    },
    {
      method: 'post',
      action: 'post',
      operationId: `create${id}`,
      description: `create a ${def.kind}`,
      gvk,
      query: WRITE_PARAMS,
      body: { definition: self },
      response: self,
      alsoReturns: ['201', '202'],
    },
    {
      method: 'delete',
      action: 'deletecollection',
      operationId: `deleteCollection${id}`,
      description: `delete collection of ${def.kind}`,
      gvk,
      query: DELETE_COLLECTION_PARAMS,
      body: { definition: DELETE_OPTIONS_DEF, optional: true },
      response: STATUS_DEF,
      alsoReturns: [],
    },
  ].filter((op) => def.verbs.includes(op.action === 'post' ? 'create' : op.action)) as OperationSpec[];
  const item: OperationSpec[] = [
    { method: 'get', action: 'get', operationId: `read${id}`, description: `read the specified ${def.kind}`, gvk, query: [], response: self, alsoReturns: [] },
    {
      method: 'put',
      action: 'put',
      operationId: `replace${id}`,
      description: `replace the specified ${def.kind}`,
      gvk,
      query: WRITE_PARAMS,
      body: { definition: self },
      response: self,
      alsoReturns: ['201'],
    },
    {
      method: 'patch',
      action: 'patch',
      operationId: `patch${id}`,
      description: `partially update the specified ${def.kind}`,
      gvk,
      query: PATCH_PARAMS,
      body: { definition: PATCH_DEF, patch: true },
      response: self,
      alsoReturns: ['201'],
    },
    {
      method: 'delete',
      action: 'delete',
      operationId: `delete${id}`,
      description: `delete a ${def.kind}`,
      gvk,
      query: DELETE_PARAMS,
      body: { definition: DELETE_OPTIONS_DEF, optional: true },
      response: self,
      alsoReturns: ['202'],
    },
  ];
  const paths: PathSpec[] = [
    { path: `${scope}/${def.plural}`, pathParams: scopeParams, operations: collection },
    { path: `${scope}/${def.plural}/{name}`, pathParams: ['name', ...scopeParams], operations: item },
  ];
  if (def.namespaced) {
    paths.push({
      path: `${base}/${def.plural}`,
      pathParams: [],
      operations: [
        {
          method: 'get',
          action: 'list',
          operationId: `list${idPrefix(def.group, def.version)}${def.kind}ForAllNamespaces`,
          description: `list or watch objects of kind ${def.kind} in every namespace`,
          gvk,
          query: LIST_PARAMS,
          response: list,
          alsoReturns: [],
        },
      ],
    });
  }
  return paths;
}

function subresourcePaths(def: ResourceDefinition): PathSpec[] {
  const base = groupVersionPath(def);
  const scope = def.namespaced ? `${base}/namespaces/{namespace}` : base;
  const pathParams = def.namespaced ? ['name', 'namespace'] : ['name'];
  const id = `${idPrefix(def.group, def.version)}${def.namespaced ? 'Namespaced' : ''}${def.kind}`;
  const out: PathSpec[] = [];
  for (const sub of subresourcesFor(def)) {
    const body = definitionName(sub.kind);
    const suffix = sub.name.charAt(0).toUpperCase() + sub.name.slice(1);
    const ops: OperationSpec[] = [];
    const gvk = sub.kind;
    const replace = (): OperationSpec => ({
      method: 'put',
      action: 'put',
      operationId: `replace${id}${suffix}`,
      description: `replace ${sub.name} of the specified ${def.kind}`,
      gvk,
      query: WRITE_PARAMS,
      body: { definition: body },
      response: body,
      alsoReturns: ['201'],
    });
    if (sub.name === 'log') {
      ops.push({
        method: 'get',
        action: 'get',
        operationId: `read${id}Log`,
        description: `read log of the specified ${def.kind}`,
        gvk,
        query: LOG_PARAMS,
        response: 'string',
        alsoReturns: [],
      });
    } else if (sub.verbs.includes('get') && sub.verbs.includes('update')) {
      ops.push(
        {
          method: 'get',
          action: 'get',
          operationId: `read${id}${suffix}`,
          description: `read ${sub.name} of the specified ${def.kind}`,
          gvk,
          query: [],
          response: body,
          alsoReturns: [],
        },
        replace(),
        {
          method: 'patch',
          action: 'patch',
          operationId: `patch${id}${suffix}`,
          description: `partially update ${sub.name} of the specified ${def.kind}`,
          gvk,
          query: PATCH_PARAMS,
          body: { definition: PATCH_DEF, patch: true },
          response: body,
          alsoReturns: ['201'],
        },
      );
    } else if (sub.verbs.includes('update')) {
      ops.push(replace());
    } else if (sub.schema && sub.verbs.includes('create')) {
      ops.push({
        method: 'post',
        action: 'post',
        operationId: `create${id}${suffix}`,
        description: `create ${sub.name} of a ${def.kind}`,
        gvk,
        query: WRITE_PARAMS,
        body: { definition: body },
        response: body,
        alsoReturns: ['201', '202'],
      });
    }
    if (ops.length > 0) out.push({ path: `${scope}/${def.plural}/{name}/${sub.name}`, pathParams, operations: ops });
  }
  return out;
}

/** Every path of the resources of one group/version. */
export function pathsOf(defs: readonly ResourceDefinition[]): PathSpec[] {
  return defs.flatMap((def) => [...mainPaths(def), ...subresourcePaths(def)]);
}
