// Small value helpers for the validators.
import { isObject } from '../meta.js';

export type Obj = Record<string, unknown>;

/** The object at `value`, or an empty one (validators read optional structs without checks). */
export function obj(value: unknown): Obj {
  return isObject(value) ? value : {};
}

/** The array at `value`, or an empty one. */
export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The objects of an array (skipping anything else, which the schema check already reported). */
export function objects(value: unknown): Obj[] {
  return arr(value).filter(isObject);
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Deep copy of JSON data. */
export function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** Whether a metav1.LabelSelector object matches a label set. */
export function selectorMatches(selector: unknown, labels: Record<string, string>): boolean {
  const sel = obj(selector);
  for (const [key, value] of Object.entries(obj(sel['matchLabels']))) {
    if (labels[key] !== value) return false;
  }
  for (const expression of objects(sel['matchExpressions'])) {
    const key = text(expression['key']);
    const values = arr(expression['values']);
    const has = Object.prototype.hasOwnProperty.call(labels, key);
    switch (expression['operator']) {
      case 'In':
        if (!has || !values.includes(labels[key])) return false;
        break;
      case 'NotIn':
        if (has && values.includes(labels[key])) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** True when a LabelSelector has no requirement at all (it would match everything). */
export function selectorIsEmpty(selector: unknown): boolean {
  const sel = obj(selector);
  return Object.keys(obj(sel['matchLabels'])).length === 0 && arr(sel['matchExpressions']).length === 0;
}

export function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(obj(value))) if (typeof item === 'string') out[key] = item;
  return out;
}
