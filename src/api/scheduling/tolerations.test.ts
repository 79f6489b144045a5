import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Taint } from './taints.js';
import { parseTolerations, tolerates, toleratesAny, type Toleration } from './tolerations.js';

const gpu: Taint = { key: 'gpu', value: 'true', effect: 'NoSchedule' };
const unreachable: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };

describe('tolerates (Kubernetes ToleratesTaint)', () => {
  it('Equal needs key and value; an absent or empty operator means Equal', () => {
    assert.equal(tolerates({ key: 'gpu', operator: 'Equal', value: 'true' }, gpu), true);
    assert.equal(tolerates({ key: 'gpu', value: 'true' }, gpu), true);
    assert.equal(tolerates({ key: 'gpu', operator: '', value: 'true' }, gpu), true);
    assert.equal(tolerates({ key: 'gpu', value: 'false' }, gpu), false);
    assert.equal(tolerates({ key: 'other', value: 'true' }, gpu), false);
    // An absent value on either side reads as empty.
    assert.equal(tolerates({ key: 'node.kubernetes.io/unreachable' }, unreachable), true);
  });

  it('Exists matches any value; an empty key with Exists matches every taint', () => {
    assert.equal(tolerates({ key: 'gpu', operator: 'Exists' }, gpu), true);
    assert.equal(tolerates({ operator: 'Exists' }, gpu), true);
    assert.equal(tolerates({ key: '', operator: 'Exists' }, unreachable), true);
  });

  it('an empty effect matches every effect, a set one only its own', () => {
    assert.equal(tolerates({ key: 'gpu', operator: 'Exists', effect: '' }, gpu), true);
    assert.equal(tolerates({ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }, gpu), true);
    assert.equal(tolerates({ key: 'gpu', operator: 'Exists', effect: 'NoExecute' }, gpu), false);
    assert.equal(tolerates({ operator: 'Exists', effect: 'PreferNoSchedule' }, gpu), false);
  });

  it('an unknown operator tolerates nothing', () => {
    assert.equal(tolerates({ key: 'gpu', operator: 'Gt', value: 'true' }, gpu), false);
    assert.equal(tolerates({ operator: 'exists' }, gpu), false);
  });

  it('toleratesAny: one matching toleration is enough', () => {
    const tolerations: Toleration[] = [
      { key: 'a', operator: 'Exists' },
      { key: 'gpu', value: 'true', effect: 'NoSchedule' },
    ];
    assert.equal(toleratesAny(tolerations, gpu), true);
    assert.equal(toleratesAny(tolerations, unreachable), false);
    assert.equal(toleratesAny([], gpu), false);
  });
});

describe('parseTolerations', () => {
  it('reads every field, defaulting the operator and empty strings, keeping tolerationSeconds', () => {
    assert.deepEqual(parseTolerations([{ key: 'gpu', value: 'true' }, { operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }, { operator: '' }]), [
      { key: 'gpu', operator: 'Equal', value: 'true', effect: '' },
      { key: '', operator: 'Exists', value: '', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: '', operator: 'Equal', value: '', effect: '' },
    ]);
  });

  it('leaves out tolerations that can tolerate nothing, and reads malformed input as absent', () => {
    assert.deepEqual(
      parseTolerations([
        { key: 'a', operator: 'Gt' },
        { key: 'b', effect: 'Sometimes' },
      ]),
      [],
    );
    assert.deepEqual(parseTolerations(undefined), []);
    assert.deepEqual(parseTolerations({ key: 'a' }), []);
    assert.deepEqual(parseTolerations([null, { key: 7, operator: null }]), [
      { key: '', operator: 'Equal', value: '', effect: '' },
      { key: '', operator: 'Equal', value: '', effect: '' },
    ]);
  });

  it('gives the same verdicts as tolerates on the raw tolerations', () => {
    const raw: Toleration[] = [
      { key: 'gpu', operator: 'Exists' },
      { key: 'x', value: 'y', effect: 'NoExecute' },
      { operator: 'Exists', effect: 'NoSchedule' },
    ];
    for (const taint of [gpu, unreachable, { key: 'x', value: 'y', effect: 'NoExecute' } as Taint]) {
      assert.equal(toleratesAny(parseTolerations(raw), taint), toleratesAny(raw, taint), taint.key);
    }
  });
});
