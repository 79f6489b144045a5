import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../meta.js';
import { findResource } from '../registry.js';
import { validateObject } from './index.js';
import { createCertificateRequest, generateKeyPair } from '../../auth/pki/certificates.js';

const def = findResource('certificates.k8s.io', 'v1', 'certificatesigningrequests')!;
const pair = await generateKeyPair();
const requestPem = await createCertificateRequest(pair, { commonName: 'system:node:a', organizations: ['system:nodes'] });
const request = Buffer.from(requestPem).toString('base64');
const certificate = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString('base64');

function csr(spec: Record<string, unknown> = {}, status?: Record<string, unknown>): KubeObject {
  const object: KubeObject = {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'c' },
    spec: { request, signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['digital signature', 'client auth'], ...spec },
  };
  if (status) object['status'] = status;
  def.applyDefaults(object);
  return object;
}

const errorsOf = (object: KubeObject, old?: KubeObject) => validateObject(def, object, old).map((e) => `${e.field}: ${e.message}`);
const approved = { type: 'Approved', status: 'True', reason: 'AutoApproved' };
const denied = { type: 'Denied', status: 'True', reason: 'No' };

describe('CertificateSigningRequest validation', () => {
  it('accepts a node client request', () => {
    assert.deepEqual(errorsOf(csr()), []);
  });

  it('needs a PKCS#10 request that parses', () => {
    assert.deepEqual(errorsOf(csr({ request: '' })), ['spec.request: Required value']);
    assert.deepEqual(errorsOf(csr({ request: Buffer.from('hello').toString('base64') })), [
      'spec.request: Invalid value: "<certificate request>": PEM block type must be CERTIFICATE REQUEST',
    ]);
    const broken = Buffer.from('-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n').toString('base64');
    assert.match(errorsOf(csr({ request: broken })).join('\n'), /^spec\.request: Invalid value: "<certificate request>": not a certificate request/);
  });

  it('needs a qualified signer name, a long enough duration and known usages', () => {
    assert.deepEqual(errorsOf(csr({ signerName: '' })), ['spec.signerName: Required value']);
    assert.match(errorsOf(csr({ signerName: 'my-signer' }))[0]!, /fully qualified domain and path/);
    assert.deepEqual(errorsOf(csr({ signerName: 'example.com/custom' })), []);
    assert.deepEqual(errorsOf(csr({ expirationSeconds: 599 })), [
      'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds',
    ]);
    assert.deepEqual(errorsOf(csr({ expirationSeconds: 600 })), []);
    assert.deepEqual(errorsOf(csr({ usages: [] })), ['spec.usages: Required value: usages must be provided']);
    assert.match(errorsOf(csr({ usages: ['client auth', 'flying'] }))[0]!, /^spec\.usages\[1\]: Unsupported value: "flying"/);
    assert.deepEqual(errorsOf(csr({ usages: ['client auth', 'client auth'] })), ['spec.usages[1]: Duplicate value: "client auth"']);
  });

  it('allows each of Approved, Denied and Failed once, True, and never Approved with Denied', () => {
    assert.deepEqual(errorsOf(csr({}, { conditions: [approved] })), []);
    assert.deepEqual(errorsOf(csr({}, { conditions: [{ type: 'Approved' }] })), [], 'status defaults to True');
    assert.deepEqual(errorsOf(csr({}, { conditions: [approved, approved] })), ['status.conditions[1].type: Duplicate value: "Approved"']);
    assert.deepEqual(errorsOf(csr({}, { conditions: [{ ...approved, status: 'False' }] })), [
      'status.conditions[0].status: Unsupported value: "False": supported values: "True"',
    ]);
    assert.deepEqual(errorsOf(csr({}, { conditions: [approved, denied] })), [
      'status.conditions: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
    ]);
  });

  it('keeps the spec, the approval and the certificate once set', () => {
    const old = csr({}, { conditions: [approved], certificate });
    assert.deepEqual(errorsOf(csr({ signerName: 'example.com/other' }, { conditions: [approved], certificate }), old), [
      'spec: Invalid value: "<spec>": field is immutable',
    ]);
    assert.deepEqual(errorsOf(csr({}, { certificate }), old), [
      'status.certificate: Forbidden: may only be set on an approved request that has not failed',
      'status.conditions: Forbidden: updates may not remove or change the Approved condition',
    ]);
    const other = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n').toString('base64');
    assert.deepEqual(errorsOf(csr({}, { conditions: [approved], certificate: other }), old), [
      'status.certificate: Invalid value: "<certificate data>": updates may not modify existing certificate content',
    ]);
  });

  it('issues a certificate only on an approved request', () => {
    assert.deepEqual(errorsOf(csr({}, { certificate })), ['status.certificate: Forbidden: may only be set on an approved request that has not failed']);
    assert.deepEqual(errorsOf(csr({}, { conditions: [approved], certificate: Buffer.from('junk').toString('base64') })), [
      'status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block',
    ]);
  });
});
