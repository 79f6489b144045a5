// The decoder on damaged input: kubectl's real request bodies with bytes flipped, replaced or cut
// off. Whatever arrives, decoding either succeeds or throws ProtobufDecodeError (a 400 or 415);
// anything else would be a 500. Seeded, so a failure repeats.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { decodeKubernetesProtobuf, ProtobufDecodeError } from './index.js';
import { KUBECTL_CREATE_FIXTURES } from '../../../test/support/apiserver/protobuf/kubectl-create.js';
import { KUBECTL_OTHER_FIXTURES } from '../../../test/support/apiserver/protobuf/kubectl-other.js';

const CASES = 30_000;
/** The envelope's `k8s\0` prefix: damaging it only tests the first check. */
const PREFIX = 4;

it('answers damaged kubectl bodies with a decode error, never another failure', () => {
  let state = 20261122;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const bodies = [...KUBECTL_CREATE_FIXTURES, ...KUBECTL_OTHER_FIXTURES].map((f) => Buffer.from(f.protobufHex, 'hex'));
  const failures = new Map<string, string>();
  for (let i = 0; i < CASES; i++) {
    const body = Buffer.from(bodies[Math.floor(next() * bodies.length)]!);
    for (let edits = 1 + Math.floor(next() * 4); edits > 0; edits--) {
      const at = PREFIX + Math.floor(next() * (body.length - PREFIX));
      body[at] = next() < 0.5 ? body[at]! ^ (1 << Math.floor(next() * 8)) : Math.floor(next() * 256);
    }
    const sent = next() < 0.1 ? body.subarray(0, Math.floor(next() * body.length)) : body;
    try {
      JSON.stringify(decodeKubernetesProtobuf(sent));
    } catch (error) {
      if (!(error instanceof ProtobufDecodeError)) failures.set(String(error), sent.toString('hex'));
    }
  }
  assert.deepEqual([...failures], []);
});
