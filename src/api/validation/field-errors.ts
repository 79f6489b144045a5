// FieldError constructors that print like Kubernetes' field.Error.ErrorBody(), so that clients
// (and people used to kubectl) see the same text: `Invalid value: -1: must be greater than ...`.
import type { FieldError } from '../meta.js';

/** Formats a bad value the way Go's field errors do (%q for strings, %#v-like for the rest). */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
    return `[]string{${value.map((item) => JSON.stringify(item)).join(', ')}}`;
  }
  if (typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.every(([, item]) => typeof item === 'string')) {
      const body = entries
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, item]) => `${JSON.stringify(key)}:${JSON.stringify(item)}`)
        .join(', ');
      return `map[string]string{${body}}`;
    }
  }
  return JSON.stringify(value);
}

export function required(field: string, detail = ''): FieldError {
  return { field, type: 'FieldValueRequired', message: detail ? `Required value: ${detail}` : 'Required value' };
}

export function invalid(field: string, value: unknown, detail: string): FieldError {
  const body = `Invalid value: ${formatValue(value)}`;
  return { field, type: 'FieldValueInvalid', message: detail ? `${body}: ${detail}` : body };
}

export function typeInvalid(field: string, value: unknown, detail: string): FieldError {
  return { field, type: 'FieldValueTypeInvalid', message: `Invalid value: ${formatValue(value)}: ${detail}` };
}

export function notSupported(field: string, value: unknown, supported: readonly string[]): FieldError {
  const list = supported.map((item) => JSON.stringify(item)).join(', ');
  return { field, type: 'FieldValueNotSupported', message: `Unsupported value: ${formatValue(value)}: supported values: ${list}` };
}

export function duplicate(field: string, value: unknown): FieldError {
  return { field, type: 'FieldValueDuplicate', message: `Duplicate value: ${formatValue(value)}` };
}

export function forbidden(field: string, detail: string): FieldError {
  return { field, type: 'FieldValueForbidden', message: `Forbidden: ${detail}` };
}

export function tooLong(field: string, maxBytes: number): FieldError {
  return { field, type: 'FieldValueTooLong', message: `Too long: may not be more than ${maxBytes} bytes` };
}

export function tooMany(field: string, actual: number, max: number): FieldError {
  return { field, type: 'FieldValueTooMany', message: `Too many: ${actual}: must have at most ${max} items` };
}

/**
 * Kubernetes reports references to missing things (a volumeMount naming no volume) as
 * "Not found".
 */
export function notFound(field: string, value: unknown): FieldError {
  return { field, type: 'FieldValueNotFound', message: `Not found: ${formatValue(value)}` };
}

/** One Invalid error per message, as Kubernetes does for name-format checks. */
export function invalidEach(field: string, value: unknown, messages: readonly string[]): FieldError[] {
  return messages.map((message) => invalid(field, value, message));
}

/** Child path helpers, Kubernetes style: `a.b`, `a[0]`, `a[key]`. */
export function child(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

export function index(path: string, i: number): string {
  return `${path}[${i}]`;
}

export function key(path: string, k: string): string {
  return `${path}[${k}]`;
}
