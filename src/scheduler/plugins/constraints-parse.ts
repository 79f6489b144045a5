// The `drover.dev/constraints` annotation: Marathon's placement constraints as a JSON array of
// `[field, operator, value?]`, e.g. `[["hostname","UNIQUE"],["rack","GROUP_BY","2"]]`.
// `hostname` is the node's name; any other field is a node label.

export const ANNOTATION_CONSTRAINTS = 'drover.dev/constraints';

export const CONSTRAINT_OPERATORS = ['UNIQUE', 'CLUSTER', 'GROUP_BY', 'LIKE', 'UNLIKE', 'MAX_PER', 'IS'] as const;
export type ConstraintOperator = (typeof CONSTRAINT_OPERATORS)[number];

export interface Constraint {
  readonly field: string;
  readonly operator: ConstraintOperator;
  /** '' when the constraint has no value. */
  readonly value: string;
  /** LIKE / UNLIKE: the value as a regular expression over the whole field value. */
  readonly pattern?: RegExp;
  /** GROUP_BY: the minimum number of groups; MAX_PER: the maximum per group. */
  readonly count?: number;
  /** How the constraint is named in rejection reasons: `hostname:UNIQUE`, `rack:GROUP_BY:2`. */
  readonly label: string;
}

export type ParsedConstraints = { readonly ok: true; readonly constraints: readonly Constraint[] } | { readonly ok: false; readonly error: string };

class ConstraintError extends Error {}

const INTEGER = /^\d+$/;

function count(operator: ConstraintOperator, value: string): number | undefined {
  if (operator === 'GROUP_BY') {
    if (value === '') return 0;
    // Marathon reads "inf" as no upper bound on the number of groups to wait for.
    if (value === 'inf') return Number.MAX_SAFE_INTEGER;
    if (!INTEGER.test(value)) throw new ConstraintError(`GROUP_BY takes an optional integer number of groups, not ${JSON.stringify(value)}`);
    return Number(value);
  }
  if (operator === 'MAX_PER') {
    if (!INTEGER.test(value)) throw new ConstraintError(`MAX_PER takes an integer maximum per group, not ${JSON.stringify(value)}`);
    return Number(value);
  }
  return undefined;
}

function pattern(operator: ConstraintOperator, value: string): RegExp | undefined {
  if (operator !== 'LIKE' && operator !== 'UNLIKE') return undefined;
  try {
    // Marathon uses Java's String.matches: the expression must match the whole value.
    return new RegExp(`^(?:${value})$`);
  } catch (error) {
    throw new ConstraintError(`${operator} value ${JSON.stringify(value)} is not a valid regular expression: ${(error as Error).message}`);
  }
}

function checkValue(operator: ConstraintOperator, value: string): void {
  const needsValue = operator === 'LIKE' || operator === 'UNLIKE' || operator === 'MAX_PER' || operator === 'IS';
  if (needsValue && value === '') throw new ConstraintError(`${operator} requires a value`);
  if (operator === 'UNIQUE' && value !== '') throw new ConstraintError('UNIQUE does not take a value');
}

function parseOne(entry: unknown): Constraint {
  if (!Array.isArray(entry) || entry.length < 2 || entry.length > 3) {
    throw new ConstraintError('must be an array of [field, operator] or [field, operator, value]');
  }
  const [field, operator, raw] = entry as unknown[];
  if (typeof field !== 'string' || field === '') throw new ConstraintError('field must be a non-empty string');
  if (typeof operator !== 'string' || !(CONSTRAINT_OPERATORS as readonly string[]).includes(operator)) {
    throw new ConstraintError(`operator must be one of ${CONSTRAINT_OPERATORS.join(', ')}, not ${JSON.stringify(operator)}`);
  }
  if (raw !== undefined && typeof raw !== 'string' && typeof raw !== 'number') throw new ConstraintError('value must be a string');
  const op = operator as ConstraintOperator;
  const value = raw === undefined ? '' : String(raw);
  checkValue(op, value);
  const c: Constraint = { field, operator: op, value, label: value === '' ? `${field}:${op}` : `${field}:${op}:${value}` };
  const n = count(op, value);
  const re = pattern(op, value);
  return { ...c, ...(n === undefined ? {} : { count: n }), ...(re === undefined ? {} : { pattern: re }) };
}

function parse(annotation: string): ParsedConstraints {
  let document: unknown;
  try {
    document = JSON.parse(annotation);
  } catch {
    return { ok: false, error: `invalid ${ANNOTATION_CONSTRAINTS} annotation: not valid JSON` };
  }
  if (!Array.isArray(document)) return { ok: false, error: `invalid ${ANNOTATION_CONSTRAINTS} annotation: must be a JSON array of constraints` };
  const constraints: Constraint[] = [];
  for (let i = 0; i < document.length; i++) {
    try {
      constraints.push(parseOne(document[i]));
    } catch (error) {
      if (!(error instanceof ConstraintError)) throw error;
      return { ok: false, error: `invalid ${ANNOTATION_CONSTRAINTS} annotation: constraint ${i} ${JSON.stringify(document[i])}: ${error.message}` };
    }
  }
  return { ok: true, constraints };
}

// Replicas share one annotation text; parsing (and compiling regexes) once per text is enough.
const cache = new Map<string, ParsedConstraints>();
const CACHE_LIMIT = 1024;

export function parseConstraints(annotation: string): ParsedConstraints {
  let parsed = cache.get(annotation);
  if (parsed === undefined) {
    parsed = parse(annotation);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(annotation, parsed);
  }
  return parsed;
}
