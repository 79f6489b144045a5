// The OpenAPI documents the API server publishes, generated once from the registry.
//
// kubectl reads them as follows (client-go openapi3 + kubectl 1.32):
//  - GET /openapi/v3 → { paths: { "apis/apps/v1": { serverRelativeURL } } }; it then GETs that
//    URL (hash included, as a cache key).
//  - `kubectl explain` finds the kind by the x-kubernetes-group-version-kind of the operations
//    under /apis/<g>/<v>[/namespaces/{namespace}]/<plural>[/{name}], then the components.schemas
//    entry whose x-kubernetes-group-version-kind list contains the same GVK.
//  - server-side field validation: kubectl sends fieldValidation=Strict (and skips its own
//    schema check) when the group/version's document has a PATCH operation with the kind's GVK
//    and a `fieldValidation` parameter.
//  - client-side apply computes strategic merge patches from the v3 document when the PATCH
//    operation accepts application/strategic-merge-patch+json.
//  - /openapi/v2 is only read as protobuf (Accept: application/com.github.proto-openapi.spec.v2
//    @v1.0+protobuf), for client-side validation when server-side validation does not apply
//    (a `kind: List` manifest) and for `kubectl explain --output plaintext-openapiv2`.
import { createHash } from 'node:crypto';
import { resourceDefinitions } from '../registry.js';
import { buildV2, buildV3 } from './documents.js';
import { openApiDocumentName } from './operations.js';
import { encodeOpenApiV2 } from './v2-protobuf.js';

export interface OpenApiV3Index {
  paths: Record<string, { serverRelativeURL: string }>;
}

interface Serialized {
  document: object;
  json: string;
  hash: string;
}

let v2: Serialized | undefined;
let v3: Map<string, Serialized> | undefined;

function serialize(document: object): Serialized {
  const json = JSON.stringify(document);
  return { document, json, hash: createHash('sha256').update(json).digest('hex').toUpperCase() };
}

function v3Documents(): Map<string, Serialized> {
  if (v3) return v3;
  const byGroupVersion = new Map<string, (typeof resourceDefinitions)[number][]>();
  for (const def of resourceDefinitions) {
    const key = openApiDocumentName(def.group, def.version);
    byGroupVersion.set(key, [...(byGroupVersion.get(key) ?? []), def]);
  }
  v3 = new Map([...byGroupVersion].map(([key, defs]) => [key, serialize(buildV3(defs))]));
  return v3;
}

/** The swagger 2.0 document served at /openapi/v2 (JSON form). */
export function openApiV2(): object {
  v2 ??= serialize(buildV2(resourceDefinitions));
  return v2.document;
}

/** The /openapi/v2 document already serialized, with its hash (for ETag). */
export function openApiV2Serialized(): { json: string; hash: string } {
  openApiV2();
  const { json, hash } = v2 as Serialized;
  return { json, hash };
}

let v2Protobuf: { body: Buffer; hash: string } | undefined;

/**
 * Content-Type of the protobuf answer at /openapi/v2. kubectl asks with the `@v1.0` spelling in
 * Accept, but Go's mime parser rejects '@' in a response type, so Kubernetes answers with `.v1.0`.
 */
export const OPENAPI_V2_PROTOBUF_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** The /openapi/v2 document as gnostic protobuf (what kubectl decodes), with its hash. */
export function openApiV2Protobuf(): { body: Buffer; hash: string } {
  if (!v2Protobuf) {
    const body = encodeOpenApiV2(openApiV2() as Record<string, unknown>);
    v2Protobuf = { body, hash: createHash('sha256').update(body).digest('hex').toUpperCase() };
  }
  return v2Protobuf;
}

/** The /openapi/v3 index: one entry per group/version, each URL carrying the document's hash. */
export function openApiV3Index(): OpenApiV3Index {
  const paths: OpenApiV3Index['paths'] = {};
  for (const [key, doc] of v3Documents()) paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${doc.hash}` };
  return { paths };
}

/** The OpenAPI 3.0 document of one group/version, e.g. 'api/v1' or 'apis/apps/v1'. */
export function openApiV3ForGroupVersion(groupVersionPath: string): object | undefined {
  return v3Documents().get(stripSlashes(groupVersionPath))?.document;
}

/** The same document serialized, with its hash (for ETag and the `hash` query parameter). */
export function openApiV3Serialized(groupVersionPath: string): { json: string; hash: string } | undefined {
  const doc = v3Documents().get(stripSlashes(groupVersionPath));
  return doc ? { json: doc.json, hash: doc.hash } : undefined;
}

function stripSlashes(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}
