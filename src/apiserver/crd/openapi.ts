// OpenAPI documents of custom resources: v3 per group/version (/openapi/v3/apis/<group>/<version>)
// and their part of /openapi/v2, so that `kubectl explain` reads their schemas and client-side
// apply finds their PATCH operation: like Kubernetes', it takes no strategic merge patch, which
// is what makes kubectl send a JSON merge patch for custom resources. The documents are built
// once per change of the CRDs.
import { createHash } from 'node:crypto';
import type { ResourceDefinition } from '../../api/resource.js';
import type { CustomResourceDefinitionInfo } from '../../api/crd/custom-resource.js';
import { buildV2, buildV3 } from '../../api/openapi/documents.js';
import { encodeOpenApiV2 } from '../../api/openapi/v2-protobuf.js';
import { refTo, type DefinitionSet } from '../../api/openapi/definitions.js';
import { definitionName, openApiDocumentName } from '../../api/openapi/operations.js';
import type { CustomResources } from './custom-resources.js';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';
const CUSTOM_PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'];

type Node = Record<string, unknown>;

const API_VERSION = {
  type: 'string',
  description:
    'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.',
};
const KIND = {
  type: 'string',
  description:
    'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. In CamelCase.',
};

function addCustomKinds(set: DefinitionSet, defs: readonly ResourceDefinition[]): void {
  for (const def of defs as readonly CustomResourceDefinitionInfo[]) {
    const name = definitionName(def);
    const schema = def.versionSchema;
    const properties = { ...(schema['properties'] as Node | undefined) };
    delete properties['metadata'];
    const metadata = described(set, set.add(OBJECT_META), "Standard object's metadata.");
    set.addRaw(name, {
      ...schema,
      type: 'object',
      properties: { apiVersion: API_VERSION, kind: KIND, metadata, ...properties },
      'x-kubernetes-group-version-kind': [{ group: def.group, kind: def.kind, version: def.version }],
    });
    set.addRaw(`${name}List`, {
      description: `${def.listKind} is a list of ${def.kind}`,
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: API_VERSION,
        items: { type: 'array', description: `List of ${def.plural}.`, items: set.flavor === 'v2' ? refTo(name, 'v2') : { allOf: [refTo(name, 'v3')] } },
        kind: KIND,
        metadata: described(set, set.add(LIST_META), 'Standard list metadata.'),
      },
      'x-kubernetes-group-version-kind': [{ group: def.group, kind: def.listKind, version: def.version }],
    });
  }
}

/** A reference with a description of its own: v3 ignores siblings of $ref, so it wraps it in allOf. */
function described(set: DefinitionSet, ref: Node, description: string): Node {
  return set.flavor === 'v2' ? { ...ref, description } : { allOf: [ref], description };
}

const CUSTOM_KINDS = { addKinds: addCustomKinds, patchTypes: CUSTOM_PATCH_TYPES };

interface Document {
  json: string;
  hash: string;
}

export class CustomResourceOpenApi {
  private documents = new Map<string, Document>();
  private builtFor = -1;
  private v2: { json: string; protobuf: Buffer; builtFor: number } | undefined;

  constructor(private readonly resources: CustomResources) {}

  /** group/version path ('apis/stable.example.com/v1') → its document. */
  private current(): Map<string, Document> {
    if (this.builtFor === this.resources.generation) return this.documents;
    const byGroupVersion = new Map<string, CustomResourceDefinitionInfo[]>();
    for (const def of this.resources.all()) {
      const key = openApiDocumentName(def.group, def.version);
      byGroupVersion.set(key, [...(byGroupVersion.get(key) ?? []), def]);
    }
    this.documents = new Map(
      [...byGroupVersion].map(([key, defs]) => {
        const json = JSON.stringify(buildV3(defs, CUSTOM_KINDS));
        return [key, { json, hash: createHash('sha256').update(json).digest('hex').toUpperCase() }];
      }),
    );
    this.builtFor = this.resources.generation;
    return this.documents;
  }

  /** Entries for the /openapi/v3 index. */
  indexEntries(): Record<string, { serverRelativeURL: string }> {
    const entries: Record<string, { serverRelativeURL: string }> = {};
    for (const [key, doc] of this.current()) entries[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${doc.hash}` };
    return entries;
  }

  document(path: string): Document | undefined {
    return this.current().get(path.replace(/^\/+|\/+$/g, ''));
  }

  /**
   * /openapi/v2 with the custom resources' paths and definitions added to the built-in document
   * (`base`); undefined while there are none, so the built-in document is served as it is.
   */
  openApiV2(base: Record<string, unknown>): { json: string; protobuf: Buffer } | undefined {
    const defs = this.resources.all();
    if (defs.length === 0) return undefined;
    if (this.v2?.builtFor !== this.resources.generation) {
      const custom = buildV2(defs, CUSTOM_KINDS);
      const merged = {
        ...base,
        paths: { ...(base['paths'] as Node), ...(custom['paths'] as Node) },
        definitions: { ...(base['definitions'] as Node), ...(custom['definitions'] as Node) },
      };
      this.v2 = { json: JSON.stringify(merged), protobuf: encodeOpenApiV2(merged), builtFor: this.resources.generation };
    }
    return this.v2;
  }
}
