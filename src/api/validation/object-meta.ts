// metadata rules every kind shares (apimachinery's ValidateObjectMeta and its update twin):
// name / generateName format, namespace, labels, annotations, finalizers, owner references.
import { parseApiVersion } from '../group-version.js';
import { isObject, type FieldError, type ObjectMeta } from '../meta.js';
import { forbidden, invalid, invalidEach, required, tooLong } from './field-errors.js';
import { checkName, isDns1123Label, isLabelValue, isQualifiedName, type NameRule } from './name-rules.js';

/** Kubernetes' limit on the summed size of all annotation keys and values. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

export interface MetaRules {
  namespaced: boolean;
  nameRule: NameRule;
}

export function validateObjectMeta(meta: ObjectMeta, rules: MetaRules, path = 'metadata'): FieldError[] {
  const errors: FieldError[] = [];
  const name = meta.name ?? '';
  const generateName = meta.generateName ?? '';
  if (name === '' && generateName === '') {
    errors.push(required(`${path}.name`, 'name or generateName is required'));
  }
  if (name !== '') errors.push(...invalidEach(`${path}.name`, name, checkName(rules.nameRule, name)));
  if (generateName !== '') {
    // The server appends a suffix, so a trailing '-' is fine: check the prefix as if it ended in a letter.
    const masked = generateName.endsWith('-') ? `${generateName.slice(0, -1)}a` : generateName;
    errors.push(...invalidEach(`${path}.generateName`, generateName, checkName(rules.nameRule, masked)));
  }
  const namespace = meta.namespace ?? '';
  if (rules.namespaced && namespace !== '') {
    errors.push(...invalidEach(`${path}.namespace`, namespace, isDns1123Label(namespace)));
  } else if (!rules.namespaced && namespace !== '') {
    errors.push(forbidden(`${path}.namespace`, 'not allowed on this type'));
  }
  errors.push(...validateLabels(meta.labels, `${path}.labels`));
  errors.push(...validateAnnotations(meta.annotations, `${path}.annotations`));
  errors.push(...validateFinalizers(meta.finalizers, `${path}.finalizers`));
  errors.push(...validateOwnerReferences(meta.ownerReferences, `${path}.ownerReferences`));
  return errors;
}

/** Label keys must be qualified names and values valid label values (used for selectors too). */
export function validateLabels(labels: unknown, path: string): FieldError[] {
  if (!isObject(labels)) return [];
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(labels)) {
    errors.push(...invalidEach(path, key, isQualifiedName(key)));
    if (typeof value === 'string') errors.push(...invalidEach(path, value, isLabelValue(value)));
  }
  return errors;
}

export function validateAnnotations(annotations: unknown, path: string): FieldError[] {
  if (!isObject(annotations)) return [];
  const errors: FieldError[] = [];
  let total = 0;
  for (const [key, value] of Object.entries(annotations)) {
    errors.push(...invalidEach(path, key, isQualifiedName(key.toLowerCase())));
    total += Buffer.byteLength(key) + (typeof value === 'string' ? Buffer.byteLength(value) : 0);
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) errors.push(tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT));
  return errors;
}

// And the CRD cleanup finalizer, which Kubernetes' apiextensions server sets on CRDs itself.
const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion', 'customresourcecleanup.apiextensions.k8s.io']);

function validateFinalizers(finalizers: unknown, path: string): FieldError[] {
  if (!Array.isArray(finalizers)) return [];
  const errors: FieldError[] = [];
  for (const finalizer of finalizers) {
    if (typeof finalizer !== 'string') continue;
    const problems = isQualifiedName(finalizer);
    errors.push(...invalidEach(path, finalizer, problems));
    if (problems.length === 0 && !finalizer.includes('/') && !STANDARD_FINALIZERS.has(finalizer)) {
      errors.push(invalid(path, finalizer, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  }
  return errors;
}

function validateOwnerReferences(references: unknown, path: string): FieldError[] {
  if (!Array.isArray(references)) return [];
  const errors: FieldError[] = [];
  const controllers: string[] = [];
  for (const reference of references) {
    if (!isObject(reference)) continue;
    const apiVersion = String(reference['apiVersion'] ?? '');
    const { version } = parseApiVersion(apiVersion);
    if (version === '') errors.push(invalid(`${path}.apiVersion`, apiVersion, 'version must not be empty'));
    for (const fieldName of ['kind', 'name', 'uid'] as const) {
      const value = String(reference[fieldName] ?? '');
      if (value === '') errors.push(invalid(`${path}.${fieldName}`, value, 'must not be empty'));
    }
    if (reference['controller'] === true) controllers.push(`${String(reference['kind'])}/${String(reference['name'])}`);
  }
  if (controllers.length > 1) {
    errors.push(invalid(path, references, `Only one reference can have Controller set to true. Found "true" in references for ${controllers.join(' and ')}`));
  }
  return errors;
}

/**
 * Fields of metadata that never change after creation. An empty value means "not sent":
 * the server carries the stored one over (as Kubernetes' BeforeUpdate does for uid and
 * creationTimestamp), so only a different non-empty value is an error.
 */
export function validateObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta, path = 'metadata'): FieldError[] {
  const errors: FieldError[] = [];
  for (const fieldName of ['name', 'namespace', 'uid', 'creationTimestamp'] as const) {
    const before = old[fieldName] ?? '';
    const after = meta[fieldName] ?? '';
    if (before !== '' && after !== '' && after !== before) errors.push(invalid(`${path}.${fieldName}`, after, 'field is immutable'));
  }
  return errors;
}
