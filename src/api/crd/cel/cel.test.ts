import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CelEvalError, evaluate } from './evaluate.js';
import { CelSyntaxError, parseCel, readsOldSelf } from './parse.js';
import { validateValue } from '../value-validation.js';
import { validateStructuralSchema } from '../structural.js';

const run = (source: string, self: unknown = {}, oldSelf?: unknown) => {
  const env = new Map<string, unknown>([['self', self]]);
  if (oldSelf !== undefined) env.set('oldSelf', oldSelf);
  return evaluate(parseCel(source), env);
};

test('operators, precedence and literals', () => {
  assert.equal(run('1 + 2 * 3 == 7 && !(2 > 3)'), true);
  assert.equal(run('7 / 2 == 3 && 7 % 2 == 1 && -3 < 0'), true);
  assert.equal(run("'a' + 'b' == \"ab\" && [1, 2] + [3] == [1, 2, 3]"), true);
  assert.equal(run("{'k': 1}['k'] == 1 && 'k' in {'k': 1} && 2 in [1, 2]"), true);
  assert.equal(run('self.a > 1 ? "big" : "small"', { a: 2 }), 'big');
  assert.equal(run('self.replicas <= self.maxReplicas', { replicas: 3, maxReplicas: 5 }), true);
});

test('fields: a missing one is an error, has() tests presence, && and || absorb an error the other side decides', () => {
  assert.throws(
    () => run('self.missing == 1', {}),
    (error: unknown) => error instanceof CelEvalError && /no such key: missing/.test(error.message),
  );
  assert.equal(run('!has(self.missing) || self.missing > 0', {}), true);
  assert.equal(run('self.missing > 0 || true', {}), true);
  assert.equal(run('false && self.missing > 0', {}), false);
  assert.equal(run('has(self.spec.x)', { spec: { x: 1 } }), true);
});

test('macros, sizes, string functions and conversions', () => {
  const self = {
    items: [
      { name: 'a', w: 1 },
      { name: 'b', w: 2 },
    ],
    tags: { env: 'prod' },
    host: 'Example.COM',
  };
  assert.equal(run('self.items.all(i, i.w > 0) && self.items.exists(i, i.name == "b") && self.items.exists_one(i, i.w == 2)', self), true);
  assert.deepEqual(run('self.items.map(i, i.name)', self), ['a', 'b']);
  assert.deepEqual(run('self.items.filter(i, i.w > 1).map(i, i.name)', self), ['b']);
  assert.equal(run('self.tags.all(k, k.startsWith("e")) && size(self.items) == 2 && self.host.size() == 11', self), true);
  assert.equal(run('self.host.lowerAscii().endsWith(".com") && self.host.matches("^[A-Za-z.]+$") && self.host.contains("ple")', self), true);
  assert.equal(run('int("42") + 1 == 43 && string(5) == "5" && "a,b".split(",").join("-") == "a-b"'), true);
});

test('syntax errors and transition rules', () => {
  assert.throws(() => parseCel('self.a >'), CelSyntaxError);
  assert.throws(() => parseCel('self.a == "x'), CelSyntaxError);
  assert.equal(readsOldSelf(parseCel('self == oldSelf')), true);
  assert.equal(readsOldSelf(parseCel('self.x > 0')), false);
});

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-validations': [
        { rule: 'self.replicas <= self.maxReplicas', message: 'replicas must not exceed maxReplicas' },
        { rule: 'self.mode == oldSelf.mode', message: 'mode is immutable', fieldPath: '.mode' },
        {
          rule: "!has(self.secret) || self.secret.startsWith('s-')",
          messageExpression: "'secret ' + self.secret + ' needs the s- prefix'",
          reason: 'FieldValueForbidden',
        },
      ],
      properties: { replicas: { type: 'integer' }, maxReplicas: { type: 'integer' }, mode: { type: 'string' }, secret: { type: 'string' } },
    },
  },
};

test('x-kubernetes-validations: failures as Kubernetes reports them; transition rules only on update', () => {
  const messages = (spec: object, old?: object) =>
    validateValue(schema, { spec }, '', old === undefined ? undefined : { spec: old }).map((e) => `${e.field}: ${e.message}`);
  assert.deepEqual(messages({ replicas: 1, maxReplicas: 2, mode: 'a' }), []);
  assert.deepEqual(messages({ replicas: 3, maxReplicas: 2, mode: 'a' }), ['spec: Invalid value: "object": replicas must not exceed maxReplicas']);
  assert.deepEqual(messages({ replicas: 1, maxReplicas: 2, mode: 'b' }, { mode: 'a' }), ['spec.mode: Invalid value: "object": mode is immutable']);
  assert.deepEqual(messages({ replicas: 1, maxReplicas: 2, mode: 'a', secret: 'x' }), ['spec: Forbidden: secret x needs the s- prefix']);
  assert.deepEqual(messages({ maxReplicas: 2, mode: 'a' }), [
    'spec: Invalid value: "object": no such key: replicas evaluating rule: self.replicas <= self.maxReplicas',
  ]);
});

test('a rule that does not compile makes the CRD invalid', () => {
  const errors = validateStructuralSchema({ type: 'object', 'x-kubernetes-validations': [{ rule: 'self.a >' }] }, 'spec.versions[0].schema.openAPIV3Schema');
  assert.deepEqual(
    errors.map((e) => e.field),
    ['spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].rule'],
  );
  assert.match(errors[0]!.message, /compilation failed/);
});
