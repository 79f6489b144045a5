import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tokenRequestSpec } from './service-account-token.js';

const API = ['https://kubernetes.default.svc.cluster.local'];

describe('TokenRequest spec', () => {
  test('defaults: the API audiences, one hour', () => {
    assert.deepEqual(tokenRequestSpec({}, API), { spec: { audiences: API, expirationSeconds: 3600 }, errors: [] });
    assert.deepEqual(tokenRequestSpec({ spec: { audiences: [] } }, API).spec.audiences, API);
  });

  test('kept as asked: audiences, duration, a bound pod', () => {
    const { spec, errors } = tokenRequestSpec(
      { spec: { audiences: ['vault'], expirationSeconds: 600, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: 'u' } } },
      API,
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(spec, { audiences: ['vault'], expirationSeconds: 600, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: 'u' } });
  });

  test('refused: under 10 minutes, not an integer, an unknown bound kind, no bound name', () => {
    const fields = (body: Record<string, unknown>) => tokenRequestSpec(body, API).errors.map((e) => `${e.field}: ${e.message}`);
    assert.deepEqual(fields({ spec: { expirationSeconds: 599 } }), [
      'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    ]);
    assert.equal(fields({ spec: { expirationSeconds: 600.5 } }).length, 1);
    assert.deepEqual(fields({ spec: { expirationSeconds: 2 ** 32 + 1 } }), [
      `spec.expirationSeconds: Invalid value: ${2 ** 32 + 1}: may not specify a duration larger than 2^32 seconds`,
    ]);
    assert.deepEqual(fields({ spec: { boundObjectRef: { kind: 'Deployment', name: 'd' } } }), [
      'spec.boundObjectRef.kind: Unsupported value: "Deployment": supported values: "Pod", "Secret"',
    ]);
    assert.deepEqual(fields({ spec: { boundObjectRef: { kind: 'Secret' } } }), ['spec.boundObjectRef.name: Required value']);
    assert.equal(fields({ spec: { audiences: [''] } }).length, 1);
  });
});
