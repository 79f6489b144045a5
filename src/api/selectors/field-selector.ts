// Field selectors (`?fieldSelector=`), parsed as apimachinery's fields.ParseSelector does:
// terms split on unescaped commas, each term `field=value`, `field==value` or `field!=value`.
// In values, `\\`, `\,` and `\=` stand for `\`, `,` and `=`; any other escape is an error.
// Which fields exist is the server's business, not the parser's.
import { SelectorError } from './errors.js';

export type FieldOperator = '=' | '!=';

export interface FieldRequirement {
  readonly field: string;
  readonly operator: FieldOperator;
  readonly value: string;
}

export interface FieldSelector {
  /** In the order Kubernetes keeps them: sorted by the term's text. */
  readonly requirements: readonly FieldRequirement[];
  isEmpty(): boolean;
  /** `get` returns a field's value; undefined counts as '' (as in Kubernetes). */
  matches(get: (field: string) => string | undefined): boolean;
  /** The value `field` must equal, for index lookups (e.g. spec.nodeName). */
  requiresExactMatch(field: string): string | undefined;
  /** Canonical string form, values escaped. */
  toString(): string;
}

const OPERATORS = ['!=', '==', '='] as const;

function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (escaped) escaped = false;
    else if (ch === '\\') escaped = true;
    else if (ch === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

// The first operator found from the left splits the term; the field part is taken verbatim.
function splitTerm(term: string): { field: string; operator: FieldOperator; rawValue: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of OPERATORS) {
      if (term.startsWith(op, i)) {
        return { field: term.slice(0, i), operator: op === '!=' ? '!=' : '=', rawValue: term.slice(i + op.length) };
      }
    }
  }
  return undefined;
}

/** Undo field selector value escaping. Throws SelectorError on bad or missing escapes. */
export function unescapeFieldValue(raw: string): string {
  if (!/[\\,=]/.test(raw)) return raw;
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i] ?? '';
    if (ch === '\\') {
      const next = raw[i + 1];
      if (next === undefined) throw new SelectorError('invalid field selector: invalid escape sequence: \\');
      if (next !== '\\' && next !== ',' && next !== '=') {
        throw new SelectorError(`invalid field selector: invalid escape sequence: \\${next}`);
      }
      out += next;
      i++;
    } else if (ch === ',' || ch === '=') {
      throw new SelectorError(`invalid field selector: unescaped character in value: '${ch}'`);
    } else {
      out += ch;
    }
  }
  return out;
}

/** Escape a value so that it survives a round trip through parseFieldSelector. */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (ch) => `\\${ch}`);
}

class CompiledFieldSelector implements FieldSelector {
  constructor(readonly requirements: readonly FieldRequirement[]) {}

  isEmpty(): boolean {
    return this.requirements.length === 0;
  }

  matches(get: (field: string) => string | undefined): boolean {
    const requirements = this.requirements;
    for (let i = 0; i < requirements.length; i++) {
      const r = requirements[i]!;
      const equal = (get(r.field) ?? '') === r.value;
      if (equal !== (r.operator === '=')) return false;
    }
    return true;
  }

  requiresExactMatch(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator === '=')?.value;
  }

  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
  }
}

function parseTerm(text: string, term: string): FieldRequirement {
  const split = splitTerm(term);
  if (split === undefined) throw new SelectorError(`invalid selector: '${text}'; can't understand '${term}'`);
  if (split.field === '') {
    throw new SelectorError(`invalid selector: '${text}'; can't understand '${term}': the field name is empty`);
  }
  return { field: split.field, operator: split.operator, value: unescapeFieldValue(split.rawValue) };
}

/** Parse `?fieldSelector=` text. '' gives the empty selector, which matches everything. */
export function parseFieldSelector(text: string): FieldSelector {
  const terms = splitTerms(text)
    .filter((term) => term !== '')
    .sort();
  return new CompiledFieldSelector(terms.map((term) => parseTerm(text, term)));
}
