// The ResourceDefinitions a CustomResourceDefinition stands for: one per served version, under the
// names the server accepted, with the version's schema driving pruning, defaulting, validation,
// patching and the OpenAPI document, and its printer columns the table.
import type { FieldError, KubeObject } from '../meta.js';
import { isObject } from '../meta.js';
import type { ResourceDefinition, ScaleSubresource } from '../resource.js';
import { ObjectMeta } from '../schemas/meta.js';
import { checkSchema } from '../validation/check-schema.js';
import { ALL_VERBS, fieldText } from '../definitions/helpers.js';
import { arr, obj, text } from '../validation/util.js';
import { applyDefaults, prune } from './prune-default.js';
import { customResourcePrinter, type PrinterColumn } from './printer.js';
import type { SchemaNode } from './schema-node.js';
import { validateValue } from './value-validation.js';

export const CRD_GROUP = 'apiextensions.k8s.io';

/** A custom resource's definition in one version, with what serving it needs to know of the CRD. */
export interface CustomResourceDefinitionInfo extends ResourceDefinition {
  /** The CRD's name, <plural>.<group>. */
  crdName: string;
  /** The version objects are stored in. */
  storageVersion: string;
  /** The version's own schema (openAPIV3Schema), as the CRD gives it. */
  versionSchema: SchemaNode;
  deprecationWarning?: string;
  /** The CRD is being deleted: its objects are being removed, and no new one may be made. */
  terminating: boolean;
}

/** The conditions of a CRD, by type. */
export function crdCondition(crd: KubeObject, type: string): Record<string, unknown> | undefined {
  const status = obj(crd['status']);
  return arr(status['conditions'])
    .map(obj)
    .find((condition) => condition['type'] === type);
}

export function isEstablished(crd: KubeObject): boolean {
  return crdCondition(crd, 'Established')?.['status'] === 'True';
}

/** The served versions of an established CRD as definitions; none while it is not established. */
export function customResourceDefinitions(crd: KubeObject): CustomResourceDefinitionInfo[] {
  if (!isEstablished(crd)) return [];
  const spec = obj(crd['spec']);
  const names = obj(obj(crd['status'])['acceptedNames']);
  const versions = arr(spec['versions']).map(obj);
  const storageVersion = text(versions.find((version) => version['storage'] === true)?.['name']);
  return versions
    .filter((version) => version['served'] === true)
    .map((version) => {
      const versionSchema = obj(obj(version['schema'])['openAPIV3Schema']);
      const subresources = obj(version['subresources']);
      const kind = text(names['kind']);
      const def: CustomResourceDefinitionInfo = {
        group: text(spec['group']),
        version: text(version['name']),
        kind,
        listKind: text(names['listKind']) || `${kind}List`,
        plural: text(names['plural']),
        singular: text(names['singular']) || kind.toLowerCase(),
        namespaced: spec['scope'] === 'Namespaced',
        shortNames: arr(names['shortNames']).map(text),
        categories: arr(names['categories']).map(text),
        verbs: ALL_VERBS,
        subresources: subresourcesOf(subresources),
        schema: objectSchema(versionSchema),
        checkSchema: (object) => pruneObject(versionSchema, object),
        applyDefaults: (object) => applyDefaults(versionSchema, object),
        validate: (object, old) => validateValue(versionSchema, object, '', old),
        table: customResourcePrinter(arr(version['additionalPrinterColumns']).map((column) => obj(column) as unknown as PrinterColumn)),
        fieldSelectors: selectableFields(version),
        strategicMergePatch: false,
        crdName: crd.metadata.name ?? '',
        storageVersion,
        versionSchema,
        terminating: crdCondition(crd, 'Terminating')?.['status'] === 'True',
      };
      if (version['deprecated'] === true) {
        def.deprecationWarning = text(version['deprecationWarning']) || `${text(spec['group'])}/${def.version} ${kind} is deprecated`;
      }
      return def;
    });
}

function subresourcesOf(subresources: Record<string, unknown>): ResourceDefinition['subresources'] {
  const out: ResourceDefinition['subresources'] = {};
  if (isObject(subresources['status'])) out.status = true;
  if (isObject(subresources['scale'])) {
    const scale = subresources['scale'];
    const spec: ScaleSubresource = { specReplicasPath: text(scale['specReplicasPath']), statusReplicasPath: text(scale['statusReplicasPath']) };
    if (text(scale['labelSelectorPath']) !== '') spec.labelSelectorPath = text(scale['labelSelectorPath']);
    out.scale = spec;
  }
  return out;
}

/**
 * The whole object's schema, for the patch and apply code that walks it: the version's schema
 * with the envelope every object has (ObjectMeta's own schema for metadata, so field ownership
 * of labels and annotations works as for built-in kinds).
 */
function objectSchema(versionSchema: SchemaNode): ResourceDefinition['schema'] {
  const properties = { ...obj(versionSchema['properties']), apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: ObjectMeta };
  return { ...versionSchema, type: 'object', properties } as unknown as ResourceDefinition['schema'];
}

/** Pruning (with the unknown fields it found, for fieldValidation) and metadata's own schema check. */
function pruneObject(versionSchema: SchemaNode, object: KubeObject): { errors: FieldError[]; unknownFields: string[] } {
  // metadata is ObjectMeta whatever the schema says of it (at most name and generateName rules).
  const metadata = object.metadata;
  const { metadata: _, ...rest } = object;
  const unknownFields = prune(versionSchema, rest);
  for (const key of Object.keys(object)) if (key !== 'metadata' && !Object.hasOwn(rest, key)) delete object[key];
  Object.assign(object, rest, { metadata });
  const meta = checkSchema(ObjectMeta, metadata, { unknownFields: 'prune' });
  return {
    errors: meta.errors.map((error) => ({ ...error, field: `metadata.${error.field}` })),
    unknownFields: [...unknownFields, ...meta.unknownFields.map((field) => `metadata.${field}`)],
  };
}

function selectableFields(version: Record<string, unknown>): ResourceDefinition['fieldSelectors'] {
  const fields: ResourceDefinition['fieldSelectors'] = {};
  for (const entry of arr(version['selectableFields'])) {
    const path = text(obj(entry)['jsonPath']);
    if (path.startsWith('.')) fields[path.slice(1)] = (object: KubeObject) => fieldText(object, path.slice(1));
  }
  return fields;
}
