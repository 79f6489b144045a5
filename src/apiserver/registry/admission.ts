// The checks and fills every written object goes through, in Kubernetes' order:
// decode checks (kind, apiVersion, namespace, unknown fields) → defaults → validation.
// Nothing reaches the store until all of them pass, so a rejected write changes nothing.
import { isObject, type FieldError, type KubeObject } from '../../api/meta.js';
import { apiVersionOf, type ResourceDefinition } from '../../api/resource.js';
import { checkSchema, validateObject } from '../../api/validation/index.js';
import { badRequest, invalid } from '../errors.js';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** Checks that a decoded body is an object of the kind the URL addresses. */
export function asObjectOfKind(body: unknown, def: ResourceDefinition, defaultMissing = false): KubeObject {
  if (!isObject(body)) throw badRequest('the request body must be a JSON or YAML object');
  const expected = apiVersionOf(def);
  if (body['kind'] === undefined || body['kind'] === '') {
    if (!defaultMissing) throw badRequest(`Object 'Kind' is missing in the request body`);
    body['kind'] = def.kind;
  }
  if (body['apiVersion'] === undefined || body['apiVersion'] === '') {
    if (!defaultMissing) throw badRequest(`Object 'apiVersion' is missing in the request body`);
    body['apiVersion'] = expected;
  }
  if (body['kind'] !== def.kind) {
    throw badRequest(`the kind in the body (${String(body['kind'])}) does not match the kind of the URL (${def.kind})`);
  }
  if (body['apiVersion'] !== expected) {
    throw badRequest(`the API version in the data (${String(body['apiVersion'])}) does not match the expected API version (${expected})`);
  }
  if (body['metadata'] === undefined || body['metadata'] === null) body['metadata'] = {};
  if (!isObject(body['metadata'])) throw badRequest('metadata must be an object');
  return body as KubeObject;
}

/** Sets or checks the object's namespace against the URL's. */
export function reconcileNamespace(object: KubeObject, def: ResourceDefinition, namespace: string | undefined): void {
  if (!def.namespaced) {
    delete object.metadata.namespace;
    return;
  }
  const own = object.metadata.namespace;
  if (own !== undefined && own !== '' && own !== namespace) {
    throw badRequest(`the namespace of the provided object (${own}) does not match the namespace sent on the request (${namespace ?? ''})`);
  }
  if (namespace !== undefined) object.metadata.namespace = namespace;
}

/**
 * Unknown fields per `fieldValidation`: Strict rejects (400), Warn removes and warns,
 * Ignore removes silently. Returns the warnings and the schema's own type errors.
 */
export function checkFields(object: KubeObject, def: ResourceDefinition, mode: FieldValidation): { warnings: string[]; errors: FieldError[] } {
  // A custom resource is always pruned, as Kubernetes does; Strict then refuses what was pruned.
  const result = def.checkSchema ? def.checkSchema(object) : checkSchema(def.schema, object, { unknownFields: mode === 'Strict' ? 'report' : 'prune' });
  if (mode === 'Strict' && result.unknownFields.length > 0) {
    throw badRequest(
      `strict decoding error: ${result.unknownFields.map((field) => `unknown field "${field}"`).join(', ')}`,
      result.unknownFields.map((field) => ({ reason: 'FieldValueInvalid', message: 'unknown field', field })),
    );
  }
  const warnings = mode === 'Warn' ? result.unknownFields.map((field) => `unknown field "${field}"`) : [];
  return { warnings, errors: result.errors };
}

/**
 * Members a body gave twice, per `fieldValidation`, as Kubernetes' strict decoding reports
 * them: Strict rejects (400), Warn warns, Ignore keeps the last silently.
 */
export function duplicateFieldWarnings(duplicates: string[], mode: FieldValidation): string[] {
  if (duplicates.length === 0 || mode === 'Ignore') return [];
  const messages = duplicates.map((field) => `duplicate field "${field}"`);
  if (mode === 'Strict') {
    throw badRequest(
      `strict decoding error: ${messages.join(', ')}`,
      duplicates.map((field) => ({ reason: 'FieldValueDuplicate', message: 'duplicate field', field })),
    );
  }
  return messages;
}

/** Runs kind validation and throws 422 Invalid with every field error found. */
export function validateOrThrow(def: ResourceDefinition, object: KubeObject, old: KubeObject | undefined, schemaErrors: FieldError[]): void {
  const errors = [...schemaErrors, ...validateObject(def, object, old)];
  if (errors.length > 0) {
    throw invalid(def.kind, object.metadata.name ?? object.metadata.generateName ?? '', def.group, errors);
  }
}

export function parseFieldValidation(value: string | null): FieldValidation {
  if (value === null || value === '') return 'Warn';
  if (value === 'Ignore' || value === 'Warn' || value === 'Strict') return value;
  throw badRequest(`fieldValidation: Unsupported value: "${value}": supported values: "Ignore", "Warn", "Strict"`, [
    { reason: 'FieldValueNotSupported', message: `Unsupported value: "${value}"`, field: 'fieldValidation' },
  ]);
}
