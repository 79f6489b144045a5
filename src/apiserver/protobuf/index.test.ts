import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeKubernetesProtobuf, PROTOBUF_CONTENT_TYPE, ProtobufDecodeError, supportedProtobufKinds } from './index.js';
import type { KubectlFixture } from '../../../test/support/apiserver/protobuf/fixture.js';
import { KUBECTL_CREATE_FIXTURES } from '../../../test/support/apiserver/protobuf/kubectl-create.js';
import { KUBECTL_OTHER_FIXTURES } from '../../../test/support/apiserver/protobuf/kubectl-other.js';
import { concat, envelope, int, msg, str } from '../../../test/support/apiserver/protobuf/wire-writer.js';

/**
 * JSON from Go carries `null` for nil slices and zero times (`creationTimestamp: null`,
 * `rules: null`); protobuf cannot tell those from absent, and the server treats both alike.
 */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

const decodeHex = (fixture: KubectlFixture) => decodeKubernetesProtobuf(Buffer.from(fixture.protobufHex, 'hex'));

describe('decodeKubernetesProtobuf on bodies captured from kubectl v1.32', () => {
  for (const fixture of [...KUBECTL_CREATE_FIXTURES, ...KUBECTL_OTHER_FIXTURES]) {
    it(`${fixture.command} decodes to the JSON kubectl would send`, () => {
      assert.deepStrictEqual(decodeHex(fixture), withoutNulls(fixture.json));
    });
  }

  it('rejects every captured body cut short by one byte', () => {
    for (const fixture of KUBECTL_CREATE_FIXTURES) {
      const body = Buffer.from(fixture.protobufHex, 'hex');
      assert.throws(
        () => decodeKubernetesProtobuf(body.subarray(0, body.length - 1)),
        (error: unknown) => {
          return error instanceof ProtobufDecodeError && error.code === 400 && error.reason === 'BadRequest';
        },
      );
    }
  });
});

describe('decodeKubernetesProtobuf envelope handling', () => {
  it('exports the media type', () => {
    assert.equal(PROTOBUF_CONTENT_TYPE, 'application/vnd.kubernetes.protobuf');
  });

  it('rejects a body without the k8s\\0 prefix', () => {
    assert.throws(() => decodeKubernetesProtobuf(Buffer.from('{"kind":"Pod"}')), /does not start with the Kubernetes protobuf prefix/);
    assert.throws(() => decodeKubernetesProtobuf(Buffer.alloc(0)), ProtobufDecodeError);
  });

  it('answers 415 for a kind without a table, naming it', () => {
    const body = envelope('apps/v1', 'ControllerRevisionX', new Uint8Array(0));
    assert.throws(
      () => decodeKubernetesProtobuf(body),
      (error: unknown) => {
        assert.ok(error instanceof ProtobufDecodeError);
        assert.equal(error.code, 415);
        assert.equal(error.reason, 'UnsupportedMediaType');
        assert.match(error.message, /ControllerRevisionX \(apps\/v1\)/);
        return true;
      },
    );
  });

  it('rejects envelopes without a kind, with an encoding, or carrying another content type', () => {
    assert.throws(() => decodeKubernetesProtobuf(envelope('v1', '', new Uint8Array(0))), /does not name an apiVersion and kind/);
    assert.throws(() => decodeKubernetesProtobuf(envelope('v1', 'Namespace', new Uint8Array(0), str(3, 'gzip'))), /content encoding "gzip"/);
    assert.throws(() => decodeKubernetesProtobuf(envelope('v1', 'Namespace', new Uint8Array(0), str(4, 'application/json'))), /content type/);
    assert.deepEqual(decodeKubernetesProtobuf(envelope('v1', 'Namespace', new Uint8Array(0), str(4, PROTOBUF_CONTENT_TYPE))), {
      apiVersion: 'v1',
      kind: 'Namespace',
    });
  });

  it('decodes DeleteOptions under any group version', () => {
    for (const apiVersion of ['v1', 'apps/v1', 'meta.k8s.io/v1']) {
      const body = envelope(apiVersion, 'DeleteOptions', concat(int(1, 30), str(4, 'Foreground'), str(5, 'All'), msg(2, str(1, 'uid-1'))));
      assert.deepEqual(decodeKubernetesProtobuf(body), {
        apiVersion,
        kind: 'DeleteOptions',
        gracePeriodSeconds: 30,
        propagationPolicy: 'Foreground',
        dryRun: ['All'],
        preconditions: { uid: 'uid-1' },
      });
    }
  });

  it('decodes a policy/v1 Eviction as client-go encodes it', () => {
    const raw = concat(msg(1, str(1, 'web-1'), str(2, ''), str(3, 'default'), msg(8)), msg(2, int(1, 0)));
    assert.deepEqual(decodeKubernetesProtobuf(envelope('policy/v1', 'Eviction', raw)), {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'web-1', namespace: 'default' },
      deleteOptions: { gracePeriodSeconds: 0 },
    });
  });

  it('decodes a Lease renewal with MicroTime stamps', () => {
    const renew = concat(int(1, Date.parse('2026-03-04T05:06:07Z') / 1000), int(2, 250_000_000));
    const raw = concat(msg(1, str(1, 'node-1'), str(3, 'kube-node-lease')), msg(2, str(1, 'node-1'), int(2, 40), msg(4, renew), int(5, 0)));
    assert.deepEqual(decodeKubernetesProtobuf(envelope('coordination.k8s.io/v1', 'Lease', raw)), {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'node-1', namespace: 'kube-node-lease' },
      spec: { holderIdentity: 'node-1', leaseDurationSeconds: 40, renewTime: '2026-03-04T05:06:07.250000Z', leaseTransitions: 0 },
    });
  });

  it('decodes a ReplicationController: its selector is a plain map', () => {
    const spec = concat(int(1, 2), msg(2, str(1, 'app'), str(2, 'legacy')), msg(3, msg(1, msg(11, str(1, 'app'), str(2, 'legacy')))));
    const raw = concat(msg(1, str(1, 'legacy'), str(3, 'default')), msg(2, spec));
    assert.deepEqual(decodeKubernetesProtobuf(envelope('v1', 'ReplicationController', raw)), {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'legacy', namespace: 'default' },
      spec: { replicas: 2, selector: { app: 'legacy' }, template: { metadata: { labels: { app: 'legacy' } } } },
    });
  });

  it('has a table for every kind the brief and kubectl need', () => {
    const kinds = new Set(supportedProtobufKinds());
    for (const kind of ['v1/Namespace', 'v1/Pod', 'v1/Binding', 'apps/v1/Deployment', 'batch/v1/Job', 'policy/v1/Eviction', 'coordination.k8s.io/v1/Lease']) {
      assert.ok(kinds.has(kind), kind);
    }
  });
});
