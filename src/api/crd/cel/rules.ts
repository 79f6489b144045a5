// x-kubernetes-validations: CEL rules on a schema node, checked against the value there (`self`)
// and, for transition rules on update, its previous value (`oldSelf`). A failed rule is reported
// as Kubernetes reports it: `<path>: Invalid value: "<type>": <message>`, with the rule's own
// message, messageExpression, reason and fieldPath when it gives them.
import type { FieldError } from '../../meta.js';
import { forbidden, invalid, required } from '../../validation/field-errors.js';
import type { SchemaNode } from '../schema-node.js';
import { CelEvalError, evaluate } from './evaluate.js';
import { parseCel, readsOldSelf, type Expr } from './parse.js';

export interface Rule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

const compiled = new Map<string, Expr | Error>();

/** The parsed expression, cached; throws the syntax error of a rule that does not compile. */
export function compileRule(source: string): Expr {
  let entry = compiled.get(source);
  if (!entry) {
    try {
      entry = parseCel(source);
    } catch (error) {
      entry = error as Error;
    }
    compiled.set(source, entry);
  }
  if (entry instanceof Error) throw entry;
  return entry;
}

export function rulesOf(schema: SchemaNode): Rule[] {
  const rules = schema['x-kubernetes-validations'];
  return Array.isArray(rules) ? rules.filter((rule): rule is Rule => typeof rule === 'object' && rule !== null && typeof rule.rule === 'string') : [];
}

/** Checks the node's rules; `old` is the previous value's holder on update, when there was one. */
export function checkRules(schema: SchemaNode, value: unknown, path: string, old: { value: unknown } | undefined, errors: FieldError[]): void {
  if (value === null || value === undefined) return;
  for (const rule of rulesOf(schema)) {
    let expr: Expr;
    try {
      expr = compileRule(rule.rule);
    } catch {
      continue; // refused when the CRD was written; a stored one that no longer compiles checks nothing
    }
    const transition = readsOldSelf(expr);
    if (transition && !old && rule.optionalOldSelf !== true) continue;
    const env = new Map<string, unknown>([['self', value]]);
    if (old) env.set('oldSelf', old.value);
    const at = rule.fieldPath ? joinFieldPath(path, rule.fieldPath) : path;
    try {
      const result = evaluate(expr, env);
      if (result === true) continue;
      if (result !== false) throw new CelEvalError(`rule did not evaluate to a bool: ${JSON.stringify(result)}`);
      errors.push(failure(rule, at, schema, messageOf(rule, env)));
    } catch (error) {
      if (!(error instanceof CelEvalError)) throw error;
      errors.push(invalid(at, typeOf(schema), `${error.message} evaluating rule: ${rule.rule}`));
    }
  }
}

function messageOf(rule: Rule, env: Map<string, unknown>): string {
  if (rule.messageExpression) {
    try {
      const message = evaluate(compileRule(rule.messageExpression), env);
      if (typeof message === 'string' && message.trim() !== '') return message;
    } catch {
      // Kubernetes falls back to the static message when the expression fails.
    }
  }
  return rule.message || `failed rule: ${rule.rule}`;
}

function failure(rule: Rule, path: string, schema: SchemaNode, message: string): FieldError {
  if (rule.reason === 'FieldValueForbidden') return forbidden(path, message);
  if (rule.reason === 'FieldValueRequired') return required(path, message);
  return invalid(path, typeOf(schema), message);
}

function typeOf(schema: SchemaNode): string {
  return typeof schema['type'] === 'string' ? schema['type'] : '';
}

function joinFieldPath(path: string, fieldPath: string): string {
  const relative = fieldPath.startsWith('.') ? fieldPath.slice(1) : fieldPath;
  return path === '' ? relative : `${path}.${relative}`;
}
