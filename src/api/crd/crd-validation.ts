// Validation of CustomResourceDefinitions, as Kubernetes' apiextensions validation: the name is
// <plural>.<group>, names are DNS labels, exactly one storage version, unique version names,
// structural schemas, subresource and printer-column paths, and conversion None only (this
// server calls no webhooks).
import { isObject, type FieldError, type KubeObject } from '../meta.js';
import { forbidden, invalid, invalidEach, notSupported, required } from '../validation/field-errors.js';
import { isDns1035Label, isDns1123Subdomain } from '../validation/name-rules.js';
import { arr, obj, text } from '../validation/util.js';
import { parseJsonPath } from './json-path.js';
import { validateStructuralSchema } from './structural.js';

const COLUMN_TYPES = ['integer', 'number', 'string', 'boolean', 'date'];

export const API_APPROVED_ANNOTATION = 'api-approved.kubernetes.io';

function isProtectedGroup(group: string): boolean {
  return ['k8s.io', 'kubernetes.io'].some((domain) => group === domain || group.endsWith(`.${domain}`));
}

export function validateCrd(crd: KubeObject, old?: KubeObject): FieldError[] {
  const spec = obj(crd['spec']);
  const group = text(spec['group']);
  const names = obj(spec['names']);
  const errors: FieldError[] = [];
  const expectedName = `${text(names['plural'])}.${group}`;
  if (crd.metadata.name !== expectedName) errors.push(invalid('metadata.name', crd.metadata.name ?? '', 'must be spec.names.plural+"."+spec.group'));
  if (group === '') errors.push(required('spec.group'));
  else {
    errors.push(...invalidEach('spec.group', group, isDns1123Subdomain(group)));
    if (!group.includes('.')) errors.push(invalid('spec.group', group, 'should be a domain with at least one dot'));
    // Kubernetes' own groups take a CRD only with the API review's approval noted (KEP-1111).
    if (isProtectedGroup(group) && !crd.metadata.annotations?.[API_APPROVED_ANNOTATION]) {
      errors.push(
        required(
          `metadata.annotations[${API_APPROVED_ANNOTATION}]`,
          `protected groups must have approval annotation "${API_APPROVED_ANNOTATION}", see https://github.com/kubernetes/enhancements/pull/1111`,
        ),
      );
    }
  }
  const scope = spec['scope'];
  if (scope === undefined || scope === '') errors.push(required('spec.scope'));
  else if (scope !== 'Cluster' && scope !== 'Namespaced') errors.push(notSupported('spec.scope', scope, ['Cluster', 'Namespaced']));
  errors.push(...validateNames(names, 'spec.names'));
  errors.push(...validateVersions(arr(spec['versions']), 'spec.versions'));
  errors.push(...validateConversion(spec['conversion']));
  if (spec['preserveUnknownFields'] === true) {
    errors.push(
      invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'),
    );
  }
  if (old) errors.push(...validateUpdate(spec, obj(old['spec'])));
  return errors;
}

export function validateNames(names: Record<string, unknown>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of ['plural', 'singular'] as const) {
    const value = text(names[field]);
    if (value === '') errors.push(required(`${path}.${field}`));
    else errors.push(...invalidEach(`${path}.${field}`, value, isDns1035Label(value)));
  }
  for (const field of ['kind', 'listKind'] as const) {
    const value = text(names[field]);
    if (value === '') errors.push(required(`${path}.${field}`));
    else if (isDns1035Label(value.toLowerCase()).length > 0) {
      errors.push(invalid(`${path}.${field}`, value, `may have mixed case, but should otherwise match: ${isDns1035Label(value.toLowerCase()).join(',')}`));
    }
  }
  if (text(names['kind']) !== '' && names['kind'] === names['listKind'])
    errors.push(invalid(`${path}.listKind`, names['listKind'], 'kind and listKind may not be the same'));
  for (const field of ['shortNames', 'categories'] as const) {
    arr(names[field]).forEach((value, i) => {
      errors.push(...invalidEach(`${path}.${field}[${i}]`, value, isDns1035Label(text(value))));
    });
  }
  return errors;
}

function validateVersions(versions: unknown[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (versions.length === 0) return [required(path, 'must have at least one version')];
  const seen = new Set<string>();
  let storage = 0;
  versions.forEach((raw, i) => {
    const version = obj(raw);
    const at = `${path}[${i}]`;
    const name = text(version['name']);
    if (name === '') errors.push(required(`${at}.name`));
    else errors.push(...invalidEach(`${at}.name`, name, isDns1035Label(name)));
    if (seen.has(name)) errors.push(invalid(`${at}.name`, name, 'must be unique'));
    seen.add(name);
    if (version['storage'] === true) storage++;
    errors.push(...validateStructuralSchema(obj(version['schema'])['openAPIV3Schema'], `${at}.schema.openAPIV3Schema`));
    errors.push(...validateSubresources(obj(version['subresources']), `${at}.subresources`));
    arr(version['additionalPrinterColumns']).forEach((column, j) => errors.push(...validateColumn(obj(column), `${at}.additionalPrinterColumns[${j}]`)));
  });
  if (storage !== 1)
    errors.push(
      invalid(
        path,
        versions.map((v) => text(obj(v)['name'])),
        'must have exactly one version marked as storage version',
      ),
    );
  if (!versions.some((v) => obj(v)['served'] === true))
    errors.push(
      invalid(
        path,
        versions.map((v) => text(obj(v)['name'])),
        'must have at least one version marked as served',
      ),
    );
  return errors;
}

function validateSubresources(subresources: Record<string, unknown>, path: string): FieldError[] {
  if (!isObject(subresources['scale'])) return [];
  const scale = subresources['scale'];
  const errors: FieldError[] = [];
  const check = (field: string, prefixes: string[], mandatory: boolean) => {
    const value = text(scale[field]);
    if (value === '') {
      if (mandatory) errors.push(required(`${path}.scale.${field}`));
      return;
    }
    if (!parseJsonPath(value) || !prefixes.some((prefix) => value.startsWith(`${prefix}.`))) {
      errors.push(invalid(`${path}.scale.${field}`, value, `should be a json path under ${prefixes.join(' or ')}`));
    }
  };
  check('specReplicasPath', ['.spec'], true);
  check('statusReplicasPath', ['.status'], true);
  check('labelSelectorPath', ['.spec', '.status'], false);
  return errors;
}

function validateColumn(column: Record<string, unknown>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (text(column['name']) === '') errors.push(required(`${path}.name`));
  const type = text(column['type']);
  if (type === '') errors.push(required(`${path}.type`));
  else if (!COLUMN_TYPES.includes(type)) errors.push(notSupported(`${path}.type`, type, COLUMN_TYPES));
  const jsonPath = text(column['jsonPath']);
  if (jsonPath === '') errors.push(required(`${path}.jsonPath`));
  else if (!parseJsonPath(jsonPath)) errors.push(invalid(`${path}.jsonPath`, jsonPath, 'must be a simple json path'));
  if (typeof column['priority'] === 'number' && column['priority'] < 0)
    errors.push(invalid(`${path}.priority`, column['priority'], 'must be greater than or equal to 0'));
  return errors;
}

function validateConversion(conversion: unknown): FieldError[] {
  if (conversion === undefined) return [];
  const strategy = obj(conversion)['strategy'];
  if (strategy === 'None') return [];
  if (strategy === 'Webhook') {
    return [
      forbidden(
        'spec.conversion.strategy',
        'conversion webhooks are not supported by this server: use strategy None (versions that differ only in apiVersion)',
      ),
    ];
  }
  return [notSupported('spec.conversion.strategy', strategy ?? '', ['None', 'Webhook'])];
}

function validateUpdate(spec: Record<string, unknown>, old: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  if (spec['group'] !== old['group']) errors.push(invalid('spec.group', spec['group'], 'field is immutable'));
  if (spec['scope'] !== old['scope']) errors.push(invalid('spec.scope', spec['scope'], 'field is immutable'));
  return errors;
}

/** SetDefaults_CustomResourceDefinition: singular and listKind from the kind, conversion None. */
export function applyCrdDefaults(crd: KubeObject): void {
  if (!isObject(crd['spec'])) return;
  const spec = crd['spec'];
  if (isObject(spec['names'])) defaultNames(spec['names']);
  if (spec['conversion'] === undefined || spec['conversion'] === null) spec['conversion'] = { strategy: 'None' };
  for (const version of arr(spec['versions'])) {
    if (!isObject(version)) continue;
    for (const column of arr(version['additionalPrinterColumns'])) {
      if (isObject(column) && column['priority'] === undefined) column['priority'] = 0;
    }
  }
  if (isObject(crd['status']) && isObject(crd['status']['acceptedNames'])) defaultNames(crd['status']['acceptedNames']);
}

function defaultNames(names: Record<string, unknown>): void {
  const kind = text(names['kind']);
  if (text(names['singular']) === '' && kind !== '') names['singular'] = kind.toLowerCase();
  if (text(names['listKind']) === '' && kind !== '') names['listKind'] = `${kind}List`;
}
