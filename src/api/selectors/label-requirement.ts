// One label requirement (`key op values`): its validation, its canonical text and its compiled
// test. The operator spellings are those of apimachinery's selection package.
import { SelectorError, aggregate, invalidValue } from './errors.js';
import { labelKeyErrors, labelValueErrors } from './label-validation.js';

export type LabelOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** Sorted, without duplicates; empty for `exists` and `!`. */
  readonly values: readonly string[];
}

export type Labels = Readonly<Record<string, string>>;
export type LabelTest = (labels: Labels) => boolean;

const INT_RE = /^[+-]?\d+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function parseInt64(text: string): bigint | undefined {
  if (!INT_RE.test(text)) return undefined;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}

function countErrors(operator: LabelOperator, values: readonly string[]): string[] {
  switch (operator) {
    case 'in':
    case 'notin':
      return values.length === 0 ? [invalidValue('values', values, "for 'in', 'notin' operators, values set can't be empty")] : [];
    case '=':
    case '==':
    case '!=':
      return values.length === 1 ? [] : [invalidValue('values', values, 'exact-match compatibility requires one single value')];
    case 'exists':
    case '!':
      return values.length === 0 ? [] : [invalidValue('values', values, 'values set must be empty for exists and does not exist')];
    case 'gt':
    case 'lt':
      if (values.length !== 1) return [invalidValue('values', values, "for 'Gt', 'Lt' operators, exactly one value is required")];
      return parseInt64(values[0] ?? '') === undefined
        ? [invalidValue('values[0]', values[0] ?? '', "for 'Gt', 'Lt' operators, the value must be an integer")]
        : [];
  }
}

/**
 * A validated requirement, as apimachinery's NewRequirement builds it. Values are deduplicated
 * and sorted, so equal selectors print alike. Throws SelectorError listing every problem.
 */
export function newRequirement(key: string, operator: LabelOperator, values: readonly string[]): LabelRequirement {
  const sorted = [...new Set(values)].sort();
  const errors: string[] = [];
  const keyErrors = labelKeyErrors(key);
  if (keyErrors.length > 0) errors.push(invalidValue('key', key, keyErrors.join('; ')));
  errors.push(...countErrors(operator, sorted));
  sorted.forEach((value, i) => {
    const valueErrors = labelValueErrors(value);
    if (valueErrors.length > 0) errors.push(invalidValue(`values[${i}][${key}]`, value, valueErrors.join('; ')));
  });
  if (errors.length > 0) throw new SelectorError(aggregate(errors));
  return { key, operator, values: sorted };
}

/** The requirement in the string syntax of `?labelSelector=`. */
export function requirementToString(r: LabelRequirement): string {
  switch (r.operator) {
    case 'exists':
      return r.key;
    case '!':
      return `!${r.key}`;
    case 'in':
    case 'notin':
      return `${r.key} ${r.operator} (${r.values.join(',')})`;
    case 'gt':
      return `${r.key}>${r.values[0] ?? ''}`;
    case 'lt':
      return `${r.key}<${r.values[0] ?? ''}`;
    default:
      return `${r.key}${r.operator}${r.values[0] ?? ''}`;
  }
}

// Label values are always strings, so `typeof v === 'string'` both tests presence and ignores
// inherited Object.prototype members (a label may legally be called `constructor`).
function membership(key: string, values: readonly string[]): LabelTest {
  const only = values[0];
  if (values.length === 1 && only !== undefined) return (labels) => labels[key] === only;
  // A linear scan beats hashing for the short lists selectors usually carry.
  if (values.length <= 8) {
    return (labels) => {
      const v = labels[key];
      return typeof v === 'string' && values.includes(v);
    };
  }
  const set = new Set(values);
  return (labels) => {
    const v = labels[key];
    return typeof v === 'string' && set.has(v);
  };
}

function comparison(key: string, operator: 'gt' | 'lt', bound: bigint): LabelTest {
  return (labels) => {
    const v = labels[key];
    const n = typeof v === 'string' ? parseInt64(v) : undefined;
    if (n === undefined) return false;
    return operator === 'gt' ? n > bound : n < bound;
  };
}

/** A closure testing one requirement; built once per selector, run per object. */
export function compileRequirement(r: LabelRequirement): LabelTest {
  const { key } = r;
  switch (r.operator) {
    case '=':
    case '==':
    case 'in':
      return membership(key, r.values);
    case '!=':
    case 'notin': {
      const member = membership(key, r.values);
      return (labels) => !member(labels);
    }
    case 'exists':
      return (labels) => typeof labels[key] === 'string';
    case '!':
      return (labels) => typeof labels[key] !== 'string';
    case 'gt':
    case 'lt':
      return comparison(key, r.operator, parseInt64(r.values[0] ?? '') ?? 0n);
  }
}
