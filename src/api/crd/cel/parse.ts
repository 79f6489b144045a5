// A parser for the subset of CEL (the Common Expression Language) that CRDs' validation rules
// use: literals, lists and maps, field and index access, calls and methods, the arithmetic,
// comparison, membership and logical operators, the conditional, and macros (has, all, exists,
// exists_one, map, filter). Precedence follows the CEL spec.
export type Expr =
  | { kind: 'literal'; value: unknown; double?: boolean }
  | { kind: 'ident'; name: string }
  | { kind: 'select'; target: Expr; field: string }
  | { kind: 'index'; target: Expr; index: Expr }
  | { kind: 'call'; name: string; target?: Expr; args: Expr[] }
  | { kind: 'list'; items: Expr[] }
  | { kind: 'map'; entries: Array<[Expr, Expr]> }
  | { kind: 'unary'; op: '!' | '-'; operand: Expr }
  | { kind: 'binary'; op: string; left: Expr; right: Expr }
  | { kind: 'conditional'; test: Expr; then: Expr; otherwise: Expr };

export class CelSyntaxError extends Error {}

type Token = { type: 'num' | 'str' | 'ident' | 'op' | 'end'; text: string; value?: unknown; double?: boolean; at: number };

const OPERATORS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '+', '-', '*', '/', '%', '!', '?', ':', '.', ',', '(', ')', '[', ']', '{', '}'];

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const start = i;
    const number = /^(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)u?/.exec(source.slice(i));
    if (number && /\d/.test(ch)) {
      const text = number[0].replace(/u$/, '');
      tokens.push({ type: 'num', text, value: Number(text), double: /[.eE]/.test(text) && !text.startsWith('0x'), at: start });
      i += number[0].length;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const triple = source.startsWith(ch.repeat(3), i);
      const quote = triple ? ch.repeat(3) : ch;
      i += quote.length;
      let text = '';
      while (i < source.length && !source.startsWith(quote, i)) {
        if (source[i] === '\\') {
          const next = source[i + 1];
          text += next === 'n' ? '\n' : next === 't' ? '\t' : next === 'r' ? '\r' : (next ?? '');
          i += 2;
        } else {
          text += source[i++];
        }
      }
      if (i >= source.length) throw new CelSyntaxError(`unterminated string at ${start}`);
      i += quote.length;
      tokens.push({ type: 'str', text, value: text, at: start });
      continue;
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i));
    if (ident) {
      tokens.push({ type: 'ident', text: ident[0], at: start });
      i += ident[0].length;
      continue;
    }
    const op = OPERATORS.find((candidate) => source.startsWith(candidate, i));
    if (!op) throw new CelSyntaxError(`unexpected character '${ch}' at ${start}`);
    tokens.push({ type: 'op', text: op, at: start });
    i += op.length;
  }
  tokens.push({ type: 'end', text: '', at: source.length });
  return tokens;
}

const BINARY_PRECEDENCE: Record<string, number> = {
  '||': 1,
  '&&': 2,
  '==': 3,
  '!=': 3,
  '<': 3,
  '<=': 3,
  '>': 3,
  '>=': 3,
  in: 3,
  '+': 4,
  '-': 4,
  '*': 5,
  '/': 5,
  '%': 5,
};

export function parseCel(source: string): Expr {
  const tokens = tokenize(source);
  let pos = 0;
  const peek = () => tokens[pos]!;
  const next = () => tokens[pos++]!;
  const expect = (text: string) => {
    const token = next();
    if (token.text !== text || token.type === 'str') throw new CelSyntaxError(`expected '${text}' at ${token.at}, found '${token.text}'`);
  };

  const expression = (): Expr => {
    const test = binary(1);
    if (peek().type === 'op' && peek().text === '?') {
      next();
      const then = expression();
      expect(':');
      return { kind: 'conditional', test, then, otherwise: expression() };
    }
    return test;
  };

  const binary = (minimum: number): Expr => {
    let left = unary();
    for (;;) {
      const token = peek();
      const op = token.type === 'op' || (token.type === 'ident' && token.text === 'in') ? token.text : '';
      const precedence = BINARY_PRECEDENCE[op];
      if (precedence === undefined || precedence < minimum) return left;
      next();
      left = { kind: 'binary', op, left, right: binary(precedence + 1) };
    }
  };

  const unary = (): Expr => {
    const token = peek();
    if (token.type === 'op' && (token.text === '!' || token.text === '-')) {
      next();
      return { kind: 'unary', op: token.text, operand: unary() };
    }
    return postfix(primary());
  };

  const args = (close: string): Expr[] => {
    const out: Expr[] = [];
    if (peek().text === close && peek().type === 'op') {
      next();
      return out;
    }
    for (;;) {
      out.push(expression());
      const token = next();
      if (token.text === close && token.type === 'op') return out;
      if (token.text !== ',' || token.type !== 'op') throw new CelSyntaxError(`expected ',' or '${close}' at ${token.at}`);
      if (peek().text === close && peek().type === 'op') {
        next();
        return out;
      }
    }
  };

  const postfix = (target: Expr): Expr => {
    for (;;) {
      const token = peek();
      if (token.type !== 'op') return target;
      if (token.text === '.') {
        next();
        const name = next();
        if (name.type !== 'ident') throw new CelSyntaxError(`expected a field name at ${name.at}`);
        if (peek().type === 'op' && peek().text === '(') {
          next();
          target = { kind: 'call', name: name.text, target, args: args(')') };
        } else {
          target = { kind: 'select', target, field: name.text };
        }
      } else if (token.text === '[') {
        next();
        const index = expression();
        expect(']');
        target = { kind: 'index', target, index };
      } else {
        return target;
      }
    }
  };

  const primary = (): Expr => {
    const token = next();
    if (token.type === 'num') return { kind: 'literal', value: token.value, ...(token.double ? { double: true } : {}) };
    if (token.type === 'str') return { kind: 'literal', value: token.value };
    if (token.type === 'ident') {
      if (token.text === 'true' || token.text === 'false') return { kind: 'literal', value: token.text === 'true' };
      if (token.text === 'null') return { kind: 'literal', value: null };
      if (peek().type === 'op' && peek().text === '(') {
        next();
        return { kind: 'call', name: token.text, args: args(')') };
      }
      return { kind: 'ident', name: token.text };
    }
    if (token.text === '(') {
      const inner = expression();
      expect(')');
      return inner;
    }
    if (token.text === '[') return { kind: 'list', items: args(']') };
    if (token.text === '{') {
      const entries: Array<[Expr, Expr]> = [];
      if (peek().text === '}') {
        next();
        return { kind: 'map', entries };
      }
      for (;;) {
        const key = expression();
        expect(':');
        entries.push([key, expression()]);
        const separator = next();
        if (separator.text === '}') return { kind: 'map', entries };
        if (separator.text !== ',') throw new CelSyntaxError(`expected ',' or '}' at ${separator.at}`);
      }
    }
    throw new CelSyntaxError(`unexpected '${token.text || 'end of input'}' at ${token.at}`);
  };

  const result = expression();
  if (peek().type !== 'end') throw new CelSyntaxError(`unexpected '${peek().text}' at ${peek().at}`);
  return result;
}

/** Whether the expression reads `oldSelf`: a transition rule, evaluated only on update. */
export function readsOldSelf(expr: Expr): boolean {
  switch (expr.kind) {
    case 'ident':
      return expr.name === 'oldSelf';
    case 'literal':
      return false;
    case 'select':
      return readsOldSelf(expr.target);
    case 'index':
      return readsOldSelf(expr.target) || readsOldSelf(expr.index);
    case 'call':
      return (expr.target ? readsOldSelf(expr.target) : false) || expr.args.some(readsOldSelf);
    case 'list':
      return expr.items.some(readsOldSelf);
    case 'map':
      return expr.entries.some(([k, v]) => readsOldSelf(k) || readsOldSelf(v));
    case 'unary':
      return readsOldSelf(expr.operand);
    case 'binary':
      return readsOldSelf(expr.left) || readsOldSelf(expr.right);
    case 'conditional':
      return readsOldSelf(expr.test) || readsOldSelf(expr.then) || readsOldSelf(expr.otherwise);
  }
}
