// Rules for individual volume sources.
import type { FieldError } from '../meta.js';
import { forbidden, invalid, invalidEach, required } from './field-errors.js';
import { isConfigMapKey, isDns1123Subdomain } from './name-rules.js';
import { objects, text, type Obj } from './util.js';

const MODE_MESSAGE = 'must be a number between 0 and 0777 (octal), both inclusive';

function checkMode(value: unknown, path: string): FieldError[] {
  return typeof value === 'number' && (value < 0 || value > 0o777) ? [invalid(path, value, MODE_MESSAGE)] : [];
}

/** A relative file path inside a volume: not absolute, no '..' element. */
function checkLocalPath(value: string, path: string): FieldError[] {
  if (value === '') return [required(path)];
  if (value.startsWith('/')) return [invalid(path, value, 'must be a relative path')];
  if (value.split('/').includes('..')) return [invalid(path, value, "must not contain '..'")];
  return [];
}

function checkItems(items: unknown, path: string): FieldError[] {
  const errors: FieldError[] = [];
  objects(items).forEach((item, i) => {
    const at = `${path}[${i}]`;
    const key = text(item['key']);
    if (key === '') errors.push(required(`${at}.key`));
    else errors.push(...invalidEach(`${at}.key`, key, isConfigMapKey(key)));
    errors.push(...checkLocalPath(text(item['path']), `${at}.path`));
    errors.push(...checkMode(item['mode'], `${at}.mode`));
  });
  return errors;
}

function checkDownwardFiles(items: unknown, path: string): FieldError[] {
  const errors: FieldError[] = [];
  objects(items).forEach((item, i) => {
    const at = `${path}[${i}]`;
    errors.push(...checkLocalPath(text(item['path']), `${at}.path`));
    errors.push(...checkMode(item['mode'], `${at}.mode`));
    const refs = ['fieldRef', 'resourceFieldRef'].filter((key) => item[key] !== undefined && item[key] !== null);
    if (refs.length !== 1) errors.push(invalid(at, 'fieldRef', 'must specify exactly one of `fieldRef` or `resourceFieldRef`'));
  });
  return errors;
}

export function validateVolumeSource(kind: string, source: Obj, path: string): FieldError[] {
  switch (kind) {
    case 'secret': {
      const name = text(source['secretName']);
      const errors = name === '' ? [required(`${path}.secretName`)] : invalidEach(`${path}.secretName`, name, isDns1123Subdomain(name));
      return [...errors, ...checkItems(source['items'], `${path}.items`), ...checkMode(source['defaultMode'], `${path}.defaultMode`)];
    }
    case 'configMap': {
      const name = text(source['name']);
      const errors = name === '' ? [required(`${path}.name`)] : invalidEach(`${path}.name`, name, isDns1123Subdomain(name));
      return [...errors, ...checkItems(source['items'], `${path}.items`), ...checkMode(source['defaultMode'], `${path}.defaultMode`)];
    }
    case 'downwardAPI':
      return [...checkDownwardFiles(source['items'], `${path}.items`), ...checkMode(source['defaultMode'], `${path}.defaultMode`)];
    case 'hostPath':
      return text(source['path']) === '' ? [required(`${path}.path`)] : [];
    case 'persistentVolumeClaim':
      return text(source['claimName']).trim() === '' ? [required(`${path}.claimName`)] : [];
    case 'projected':
      return validateProjected(source, path);
    default:
      return [];
  }
}

function validateProjected(source: Obj, path: string): FieldError[] {
  const errors: FieldError[] = checkMode(source['defaultMode'], `${path}.defaultMode`);
  objects(source['sources']).forEach((projection, i) => {
    const at = `${path}.sources[${i}]`;
    const kinds = ['secret', 'configMap', 'downwardAPI', 'serviceAccountToken', 'clusterTrustBundle'].filter(
      (key) => projection[key] !== undefined && projection[key] !== null,
    );
    if (kinds.length > 1) errors.push(forbidden(`${at}.${kinds[1] ?? ''}`, 'may not specify more than 1 volume type per source'));
    if (kinds.length === 0) errors.push(required(at, 'must specify exactly 1 volume type'));
    const token = projection['serviceAccountToken'] as Obj | undefined;
    if (token && typeof token['expirationSeconds'] === 'number' && token['expirationSeconds'] < 600) {
      errors.push(invalid(`${at}.serviceAccountToken.expirationSeconds`, token['expirationSeconds'], 'may not specify a duration less than 10 minutes'));
    }
    if (token) errors.push(...checkLocalPath(text(token['path']), `${at}.serviceAccountToken.path`));
  });
  return errors;
}
