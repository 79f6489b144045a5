// Recursive-descent parser for label selector strings, following the grammar of apimachinery's
// labels.Parse:
//
//   selector    ::= requirement ( "," requirement )*
//   requirement ::= [ "!" ] KEY [ ( "in" | "notin" ) "(" VALUES ")" | ( "=" | "==" | "!=" | ">" | "<" ) VALUE ]
//
// `in` and `notin` are keywords only where an operator is expected, so `in in (in)` is valid.
import { SelectorError, invalidValue } from './errors.js';
import { tokenize, type Token, type TokenKind } from './label-lexer.js';
import { labelKeyErrors } from './label-validation.js';
import { newRequirement, type LabelOperator, type LabelRequirement } from './label-requirement.js';

type Context = 'operator' | 'value';

const OPERATORS: Partial<Record<TokenKind, LabelOperator>> = {
  in: 'in',
  notin: 'notin',
  equals: '=',
  doubleEquals: '==',
  notEquals: '!=',
  gt: 'gt',
  lt: 'lt',
};

class Parser {
  private position = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  private token(offset: number, context: Context): Token {
    const token = this.tokens[Math.min(this.position + offset, this.tokens.length - 1)] ?? { kind: 'end', text: '' };
    if (context === 'value' && (token.kind === 'in' || token.kind === 'notin')) {
      return { kind: 'identifier', text: token.text };
    }
    return token;
  }

  private peek(context: Context = 'value'): Token {
    return this.token(0, context);
  }

  private next(context: Context = 'value'): Token {
    const token = this.token(0, context);
    this.position++;
    return token;
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const start = this.peek();
      if (start.kind === 'end') return requirements;
      if (start.kind !== 'identifier' && start.kind !== 'not') {
        throw new SelectorError(`found '${start.text}', expected: !, identifier, or 'end of string'`);
      }
      requirements.push(this.requirementWithContext());
      const after = this.next();
      if (after.kind === 'end') return requirements;
      if (after.kind !== 'comma') {
        throw new SelectorError(`found '${after.text}', expected: ',' or 'end of string'`);
      }
      const following = this.peek();
      if (following.kind !== 'identifier' && following.kind !== 'not') {
        throw new SelectorError(`found '${following.text}', expected: identifier after ','`);
      }
    }
  }

  private requirementWithContext(): LabelRequirement {
    try {
      return this.requirement();
    } catch (error) {
      if (error instanceof SelectorError) throw new SelectorError(`unable to parse requirement: ${error.message}`);
      throw error;
    }
  }

  private requirement(): LabelRequirement {
    const { key, operator } = this.keyAndImpliedOperator();
    if (operator !== undefined) return newRequirement(key, operator, []);
    const explicit = this.operator();
    const values = explicit === 'in' || explicit === 'notin' ? this.valueSet() : this.exactValue();
    return newRequirement(key, explicit, values);
  }

  // `!key` means does-not-exist; a bare key followed by `,` or the end means exists.
  private keyAndImpliedOperator(): { key: string; operator: LabelOperator | undefined } {
    let token = this.next();
    let operator: LabelOperator | undefined;
    if (token.kind === 'not') {
      operator = '!';
      token = this.next();
    }
    if (token.kind !== 'identifier') throw new SelectorError(`found '${token.text}', expected: identifier`);
    const keyErrors = labelKeyErrors(token.text);
    if (keyErrors.length > 0) throw new SelectorError(invalidValue('key', token.text, keyErrors.join('; ')));
    const following = this.peek().kind;
    if (operator === undefined && (following === 'end' || following === 'comma')) operator = 'exists';
    return { key: token.text, operator };
  }

  private operator(): LabelOperator {
    const token = this.next('operator');
    const operator = OPERATORS[token.kind];
    if (operator === undefined) {
      throw new SelectorError(`found '${token.text}', expected: '=', '!=', '==', 'in', 'notin', '>' or '<'`);
    }
    return operator;
  }

  private valueSet(): string[] {
    const open = this.next();
    if (open.kind !== 'openPar') throw new SelectorError(`found '${open.text}' expected: '('`);
    const first = this.peek();
    if (first.kind === 'closePar') {
      this.next();
      return [''];
    }
    if (first.kind !== 'identifier' && first.kind !== 'comma') {
      throw new SelectorError(`found '${first.text}', expected: ',', ')' or identifier`);
    }
    const values = this.identifierList();
    const close = this.next();
    if (close.kind !== 'closePar') throw new SelectorError(`found '${close.text}', expected: ')'`);
    return values;
  }

  // Empty entries are empty-string values: `(a,)`, `(,a)` and `(a,,b)` all include "".
  private identifierList(): string[] {
    const values: string[] = [];
    for (;;) {
      const token = this.next();
      if (token.kind === 'identifier') {
        values.push(token.text);
        const following = this.peek();
        if (following.kind === 'closePar') return values;
        if (following.kind !== 'comma') throw new SelectorError(`found '${following.text}', expected: ',' or ')'`);
      } else if (token.kind === 'comma') {
        if (values.length === 0) values.push('');
        const following = this.peek().kind;
        if (following === 'closePar') return [...values, ''];
        if (following === 'comma') {
          this.next();
          values.push('');
        }
      } else {
        throw new SelectorError(`found '${token.text}', expected: ',', or identifier`);
      }
    }
  }

  private exactValue(): string[] {
    const following = this.peek().kind;
    if (following === 'end' || following === 'comma') return [''];
    const token = this.next();
    if (token.kind !== 'identifier') throw new SelectorError(`found '${token.text}', expected: identifier`);
    return [token.text];
  }
}

/** The requirements of a selector string, sorted by key (stable) as Kubernetes orders them. */
export function parseLabelRequirements(text: string): LabelRequirement[] {
  const requirements = new Parser(tokenize(text)).parse();
  return requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
