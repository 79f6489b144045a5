// Compiled label selectors: parsed once (from `?labelSelector=` or from a Deployment's
// `spec.selector`), then matched per object and per watch event. Matching is a loop over
// pre-built closures with no allocation.
import { SelectorError } from './errors.js';
import { parseLabelRequirements } from './label-parser.js';
import {
  compileRequirement,
  newRequirement,
  requirementToString,
  type LabelOperator,
  type LabelRequirement,
  type LabelTest,
  type Labels,
} from './label-requirement.js';

export type { LabelOperator, LabelRequirement, Labels } from './label-requirement.js';

export interface LabelSelector {
  /** Sorted by key; empty for both the match-everything and the match-nothing selector. */
  readonly requirements: readonly LabelRequirement[];
  /** True when the selector does not restrict anything (matches every object). */
  isEmpty(): boolean;
  /** True for the selector of a nil `LabelSelector` object, which matches no object. */
  matchesNothing(): boolean;
  matches(labels: Labels | undefined): boolean;
  /** The value `key` must equal (`key=v`, `key==v` or `key in (v)`), for index lookups. */
  requiresExactMatch(key: string): string | undefined;
  /** Canonical string syntax; '' for empty and match-nothing selectors, as in Kubernetes. */
  toString(): string;
}

/** The `metav1.LabelSelector` object found in workload specs. */
export interface LabelSelectorObject {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: ReadonlyArray<{ key: string; operator: string; values?: readonly string[] | null }> | null;
}

const NO_LABELS: Labels = Object.freeze({});

class CompiledLabelSelector implements LabelSelector {
  private readonly tests: readonly LabelTest[];

  constructor(
    readonly requirements: readonly LabelRequirement[],
    private readonly nothing = false,
  ) {
    this.tests = requirements.map(compileRequirement);
  }

  isEmpty(): boolean {
    return !this.nothing && this.requirements.length === 0;
  }

  matchesNothing(): boolean {
    return this.nothing;
  }

  matches(labels: Labels | undefined): boolean {
    if (this.nothing) return false;
    const subject = labels ?? NO_LABELS;
    const tests = this.tests;
    for (let i = 0; i < tests.length; i++) {
      if (!tests[i]!(subject)) return false;
    }
    return true;
  }

  requiresExactMatch(key: string): string | undefined {
    const r = this.requirements.find((candidate) => candidate.key === key);
    if (r === undefined || r.values.length !== 1) return undefined;
    return r.operator === '=' || r.operator === '==' || r.operator === 'in' ? r.values[0] : undefined;
  }

  toString(): string {
    return this.requirements.map(requirementToString).join(',');
  }
}

const EVERYTHING = new CompiledLabelSelector([]);
const NOTHING = new CompiledLabelSelector([], true);

function byKey(a: LabelRequirement, b: LabelRequirement): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** A selector that matches every object. */
export function everythingSelector(): LabelSelector {
  return EVERYTHING;
}

/** A selector that matches no object. */
export function nothingSelector(): LabelSelector {
  return NOTHING;
}

/** Parse the string syntax of `?labelSelector=` / `kubectl -l`. Throws SelectorError. */
export function parseLabelSelector(text: string): LabelSelector {
  const requirements = parseLabelRequirements(text);
  return requirements.length === 0 ? EVERYTHING : new CompiledLabelSelector(requirements);
}

/** A selector requiring exactly these labels (a Service's `spec.selector`); empty matches all. */
export function selectorFromSet(set: Readonly<Record<string, string>> | null | undefined): LabelSelector {
  if (!set) return EVERYTHING;
  const requirements = Object.keys(set).map((key) => newRequirement(key, '=', [set[key] ?? '']));
  return requirements.length === 0 ? EVERYTHING : new CompiledLabelSelector(requirements.sort(byKey));
}

const OBJECT_OPERATORS: ReadonlyMap<string, LabelOperator> = new Map([
  ['In', 'in'],
  ['NotIn', 'notin'],
  ['Exists', 'exists'],
  ['DoesNotExist', '!'],
]);

/** What callers may hand in: a typed selector object or one read untyped from a stored object. */
export type LabelSelectorInput = LabelSelectorObject | Readonly<Record<string, unknown>> | null | undefined;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function matchLabelRequirements(matchLabels: unknown): LabelRequirement[] {
  if (matchLabels === undefined || matchLabels === null) return [];
  if (!isRecord(matchLabels)) throw new SelectorError('matchLabels: must be a map of label keys to values');
  return Object.keys(matchLabels).map((key) => {
    const value = matchLabels[key];
    if (typeof value !== 'string') throw new SelectorError(`matchLabels[${key}]: must be a string`);
    return newRequirement(key, '=', [value]);
  });
}

function expressionRequirement(expression: unknown, index: number): LabelRequirement {
  const path = `matchExpressions[${index}]`;
  if (!isRecord(expression) || typeof expression['key'] !== 'string') {
    throw new SelectorError(`${path}.key: must be a string`);
  }
  const { key, operator, values } = expression;
  const op = typeof operator === 'string' ? OBJECT_OPERATORS.get(operator) : undefined;
  if (op === undefined) throw new SelectorError(`${JSON.stringify(operator ?? '')} is not a valid label selector operator`);
  if (values !== undefined && values !== null && !isStringList(values)) {
    throw new SelectorError(`${path}.values: must be a list of strings`);
  }
  return newRequirement(key, op, values ?? []);
}

/**
 * Compile a `metav1.LabelSelector` object as metav1.LabelSelectorAsSelector does: null/undefined
 * matches nothing, `{}` matches everything. Throws SelectorError for invalid keys, values,
 * operators or shapes.
 */
export function fromLabelSelectorObject(object: LabelSelectorInput): LabelSelector {
  if (object === null || object === undefined) return NOTHING;
  if (!isRecord(object)) throw new SelectorError('label selector must be an object');
  const requirements = matchLabelRequirements(object['matchLabels']);
  const expressions = object['matchExpressions'] ?? [];
  if (!Array.isArray(expressions)) throw new SelectorError('matchExpressions: must be a list');
  expressions.forEach((expression: unknown, i) => requirements.push(expressionRequirement(expression, i)));
  return requirements.length === 0 ? EVERYTHING : new CompiledLabelSelector(requirements.sort(byKey));
}

/** The string form of a selector object, e.g. for a /scale subresource's `status.selector`. */
export function labelSelectorToString(object: LabelSelectorInput): string {
  return fromLabelSelectorObject(object).toString();
}
