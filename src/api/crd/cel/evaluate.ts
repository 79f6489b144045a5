// Evaluates the CEL subset of parse.ts over JSON values, with CEL's semantics where they differ
// from JavaScript's: a missing field is an error ("no such key"), `&&` and `||` absorb an error
// on one side when the other decides, equality is by value, integer division truncates, and
// sizes count code points. `self` is the value a rule sits on, `oldSelf` its previous value.
import { jsonEqual } from '../../../util/json-equal.js';
import type { Expr } from './parse.js';

export class CelEvalError extends Error {}

type Env = ReadonlyMap<string, unknown>;
type Obj = Record<string, unknown>;

const isMap = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

function typeName(value: unknown): string {
  if (value === null) return 'null_type';
  if (Array.isArray(value)) return 'list';
  if (isMap(value)) return 'map';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'double';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}

function noOverload(name: string, ...values: unknown[]): CelEvalError {
  return new CelEvalError(`no such overload: ${name}(${values.map(typeName).join(', ')})`);
}

export function evaluate(expr: Expr, env: Env): unknown {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'ident': {
      if (!env.has(expr.name)) throw new CelEvalError(`undeclared reference to '${expr.name}'`);
      return env.get(expr.name);
    }
    case 'select':
      return select(evaluate(expr.target, env), expr.field);
    case 'index':
      return index(evaluate(expr.target, env), evaluate(expr.index, env));
    case 'list':
      return expr.items.map((item) => evaluate(item, env));
    case 'map':
      return Object.fromEntries(expr.entries.map(([k, v]) => [String(evaluate(k, env)), evaluate(v, env)]));
    case 'unary': {
      const value = evaluate(expr.operand, env);
      if (expr.op === '!') {
        if (typeof value !== 'boolean') throw noOverload('!_', value);
        return !value;
      }
      if (typeof value !== 'number') throw noOverload('-_', value);
      return -value;
    }
    case 'conditional': {
      const test = evaluate(expr.test, env);
      if (typeof test !== 'boolean') throw noOverload('_?_:_', test);
      return evaluate(test ? expr.then : expr.otherwise, env);
    }
    case 'binary':
      return binary(expr, env);
    case 'call':
      return call(expr, env);
  }
}

function select(target: unknown, field: string): unknown {
  if (!isMap(target)) throw new CelEvalError(`no such key: ${field}`);
  if (!Object.hasOwn(target, field) || target[field] === undefined) throw new CelEvalError(`no such key: ${field}`);
  return target[field];
}

function index(target: unknown, key: unknown): unknown {
  if (Array.isArray(target)) {
    if (typeof key !== 'number' || !Number.isInteger(key)) throw noOverload('_[_]', target, key);
    if (key < 0 || key >= target.length) throw new CelEvalError(`index out of bounds: ${key}`);
    return target[key];
  }
  if (isMap(target)) return select(target, String(key));
  throw noOverload('_[_]', target, key);
}

function logical(expr: Extract<Expr, { kind: 'binary' }>, env: Env): boolean {
  const decisive = expr.op === '||';
  let failure: unknown;
  for (const side of [expr.left, expr.right]) {
    try {
      const value = evaluate(side, env);
      if (typeof value !== 'boolean') throw noOverload(`_${expr.op}_`, value);
      if (value === decisive) return decisive;
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure) throw failure;
  return !decisive;
}

function compare(op: string, left: unknown, right: unknown): boolean {
  const comparable =
    (typeof left === 'number' && typeof right === 'number') ||
    (typeof left === 'string' && typeof right === 'string') ||
    (typeof left === 'boolean' && typeof right === 'boolean');
  if (!comparable) throw noOverload(`_${op}_`, left, right);
  const a = left as number | string;
  const b = right as number | string;
  return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
}

function binary(expr: Extract<Expr, { kind: 'binary' }>, env: Env): unknown {
  if (expr.op === '&&' || expr.op === '||') return logical(expr, env);
  const left = evaluate(expr.left, env);
  const right = evaluate(expr.right, env);
  switch (expr.op) {
    case '==':
      return jsonEqual(left, right);
    case '!=':
      return !jsonEqual(left, right);
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compare(expr.op, left, right);
    case 'in':
      if (Array.isArray(right)) return right.some((item) => jsonEqual(item, left));
      if (isMap(right)) return Object.hasOwn(right, String(left));
      throw noOverload('@in', left, right);
    case '+':
      if (typeof left === 'number' && typeof right === 'number') return left + right;
      if (typeof left === 'string' && typeof right === 'string') return left + right;
      if (Array.isArray(left) && Array.isArray(right)) return [...left, ...right];
      throw noOverload('_+_', left, right);
    default: {
      if (typeof left !== 'number' || typeof right !== 'number') throw noOverload(`_${expr.op}_`, left, right);
      if (expr.op === '-') return left - right;
      if (expr.op === '*') return left * right;
      const integers = Number.isInteger(left) && Number.isInteger(right);
      if ((expr.op === '/' || expr.op === '%') && integers && right === 0) throw new CelEvalError(expr.op === '/' ? 'division by zero' : 'modulus by zero');
      if (expr.op === '/') return integers ? Math.trunc(left / right) : left / right;
      return left % right;
    }
  }
}

const MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

function call(expr: Extract<Expr, { kind: 'call' }>, env: Env): unknown {
  if (expr.name === 'has' && !expr.target) {
    const arg = expr.args[0];
    if (expr.args.length !== 1 || arg?.kind !== 'select') throw new CelEvalError('has() takes one field selection');
    const target = evaluate(arg.target, env);
    return isMap(target) && Object.hasOwn(target, arg.field) && target[arg.field] !== undefined;
  }
  if (expr.target && MACROS.has(expr.name)) return macro(expr, env);
  const target = expr.target ? evaluate(expr.target, env) : undefined;
  const args = expr.args.map((arg) => evaluate(arg, env));
  return expr.target ? method(expr.name, target, args) : global(expr.name, args);
}

function macro(expr: Extract<Expr, { kind: 'call' }>, env: Env): unknown {
  const range = evaluate(expr.target!, env);
  const items = Array.isArray(range) ? range : isMap(range) ? Object.keys(range) : undefined;
  if (!items) throw noOverload(expr.name, range);
  const variable = expr.args[0];
  if (variable?.kind !== 'ident' || expr.args.length < 2) throw new CelEvalError(`${expr.name}() takes a variable and an expression`);
  const scoped = (item: unknown, body: Expr) => evaluate(body, new Map([...env, [variable.name, item]]));
  const predicate = (item: unknown, body: Expr) => {
    const value = scoped(item, body);
    if (typeof value !== 'boolean') throw noOverload(expr.name, value);
    return value;
  };
  const body = expr.args[expr.args.length - 1]!;
  switch (expr.name) {
    case 'all':
      return items.every((item) => predicate(item, body));
    case 'exists':
      return items.some((item) => predicate(item, body));
    case 'exists_one':
      return items.filter((item) => predicate(item, body)).length === 1;
    case 'filter':
      return items.filter((item) => predicate(item, body));
    default: {
      // map(x, e) or map(x, p, e): transform, optionally only the items p accepts.
      const chosen = expr.args.length === 3 ? items.filter((item) => predicate(item, expr.args[1]!)) : items;
      return chosen.map((item) => scoped(item, body));
    }
  }
}

function size(value: unknown): number {
  if (typeof value === 'string') return [...value].length;
  if (Array.isArray(value)) return value.length;
  if (isMap(value)) return Object.keys(value).length;
  throw noOverload('size', value);
}

function regex(pattern: unknown): RegExp {
  if (typeof pattern !== 'string') throw noOverload('matches', pattern);
  try {
    return new RegExp(pattern, 'u');
  } catch {
    throw new CelEvalError(`invalid regular expression: ${pattern}`);
  }
}

function method(name: string, target: unknown, args: unknown[]): unknown {
  if (name === 'size' && args.length === 0) return size(target);
  if (Array.isArray(target) && name === 'join') {
    if (!target.every((item) => typeof item === 'string')) throw noOverload('join', target);
    return target.join(typeof args[0] === 'string' ? args[0] : '');
  }
  if (typeof target !== 'string') throw noOverload(name, target, ...args);
  const arg = args[0];
  const needString = () => {
    if (typeof arg !== 'string') throw noOverload(name, target, ...args);
    return arg;
  };
  switch (name) {
    case 'startsWith':
      return target.startsWith(needString());
    case 'endsWith':
      return target.endsWith(needString());
    case 'contains':
      return target.includes(needString());
    case 'matches':
      return regex(arg).test(target);
    case 'lowerAscii':
      return target.replace(/[A-Z]/g, (c) => c.toLowerCase());
    case 'upperAscii':
      return target.replace(/[a-z]/g, (c) => c.toUpperCase());
    case 'trim':
      return target.trim();
    case 'split':
      return target.split(needString());
    case 'indexOf':
      return target.indexOf(needString());
    case 'replace': {
      const replacement = args[1];
      if (typeof replacement !== 'string') throw noOverload(name, target, ...args);
      return target.split(needString()).join(replacement);
    }
    default:
      throw new CelEvalError(`undeclared reference to '${name}'`);
  }
}

function global(name: string, args: unknown[]): unknown {
  const [value, second] = args;
  switch (name) {
    case 'size':
      return size(value);
    case 'matches':
      if (typeof value !== 'string') throw noOverload('matches', value, second);
      return regex(second).test(value);
    case 'int':
    case 'uint': {
      const number = typeof value === 'string' && /^[+-]?\d+$/.test(value.trim()) ? Number(value) : typeof value === 'number' ? Math.trunc(value) : NaN;
      if (Number.isNaN(number)) throw new CelEvalError(`cannot convert ${JSON.stringify(value)} to ${name}`);
      return number;
    }
    case 'double': {
      const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
      if (Number.isNaN(number)) throw new CelEvalError(`cannot convert ${JSON.stringify(value)} to double`);
      return number;
    }
    case 'string':
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
      throw noOverload('string', value);
    case 'bool':
      if (value === 'true' || value === true) return true;
      if (value === 'false' || value === false) return false;
      throw new CelEvalError(`cannot convert ${JSON.stringify(value)} to bool`);
    case 'dyn':
      return value;
    default:
      throw new CelEvalError(`undeclared reference to '${name}'`);
  }
}
