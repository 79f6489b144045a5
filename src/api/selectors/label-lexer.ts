// Tokens of the label selector string syntax. Identifiers run until whitespace or one of the
// operator characters, as in apimachinery's lexer, so `a=b`, `a = b` and `a in(b)` all lex alike.

export type TokenKind =
  'end' | 'identifier' | 'in' | 'notin' | 'openPar' | 'closePar' | 'comma' | 'not' | 'equals' | 'doubleEquals' | 'notEquals' | 'gt' | 'lt';

export interface Token {
  kind: TokenKind;
  text: string;
}

// Maps, not object literals: input words such as `constructor` must not hit Object.prototype.
const SYMBOLS: ReadonlyMap<string, TokenKind> = new Map([
  ['!=', 'notEquals'],
  ['==', 'doubleEquals'],
  ['!', 'not'],
  ['=', 'equals'],
  ['(', 'openPar'],
  [')', 'closePar'],
  [',', 'comma'],
  ['>', 'gt'],
  ['<', 'lt'],
]);

const KEYWORDS: ReadonlyMap<string, TokenKind> = new Map([
  ['in', 'in'],
  ['notin', 'notin'],
]);

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
}

function isSymbolChar(ch: string): boolean {
  return ch === '=' || ch === '!' || ch === '(' || ch === ')' || ch === ',' || ch === '>' || ch === '<';
}

/** Every token of `text`, always ending with one `end` token. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (isWhitespace(ch)) {
      i++;
    } else if (isSymbolChar(ch)) {
      // Two-character operators win over their one-character prefixes.
      const pair = text.slice(i, i + 2);
      const symbol = SYMBOLS.has(pair) ? pair : ch;
      tokens.push({ kind: SYMBOLS.get(symbol) ?? 'identifier', text: symbol });
      i += symbol.length;
    } else {
      let end = i + 1;
      while (end < text.length && !isWhitespace(text[end] ?? '') && !isSymbolChar(text[end] ?? '')) end++;
      const word = text.slice(i, end);
      tokens.push({ kind: KEYWORDS.get(word) ?? 'identifier', text: word });
      i = end;
    }
  }
  tokens.push({ kind: 'end', text: '' });
  return tokens;
}
