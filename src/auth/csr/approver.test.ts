import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { autoApproval } from './approver.js';
import { signingPlan, type RequestFacts } from './signers.js';

const node = (overrides: Partial<RequestFacts> = {}): RequestFacts => ({
  signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
  usages: ['digital signature', 'key encipherment', 'client auth'],
  subject: { commonName: 'system:node:a', organizations: ['system:nodes'] },
  altNames: [],
  username: 'system:bootstrap:drover',
  groups: ['system:bootstrappers', 'system:authenticated'],
  ...overrides,
});

describe('auto-approval of node client certificates', () => {
  it('approves a joining node (a bootstrapper) and a node renewing its own certificate', () => {
    assert.ok(autoApproval(node()));
    assert.ok(autoApproval(node({ username: 'system:node:a', groups: ['system:nodes', 'system:authenticated'] })));
  });

  it("leaves a node asking for another node's certificate, and anyone else, to a person", () => {
    assert.equal(autoApproval(node({ username: 'system:node:b', groups: ['system:nodes', 'system:authenticated'] })), undefined);
    assert.equal(autoApproval(node({ username: 'alice', groups: ['system:authenticated'] })), undefined);
  });

  it('approves only node subjects with client usages and no alternative names, for the kubelet client signer', () => {
    assert.equal(autoApproval(node({ signerName: 'kubernetes.io/kube-apiserver-client' })), undefined);
    assert.equal(autoApproval(node({ subject: { commonName: 'system:node:a', organizations: ['system:nodes', 'system:masters'] } })), undefined);
    assert.equal(autoApproval(node({ subject: { commonName: 'system:node:a' } })), undefined);
    assert.equal(autoApproval(node({ subject: { commonName: 'admin', organizations: ['system:nodes'] } })), undefined);
    assert.equal(autoApproval(node({ subject: { commonName: 'system:node:', organizations: ['system:nodes'] } })), undefined);
    assert.equal(autoApproval(node({ usages: ['client auth', 'server auth'] })), undefined);
    assert.equal(autoApproval(node({ usages: ['digital signature'] })), undefined, 'client auth is needed');
    assert.equal(autoApproval(node({ altNames: ['10.0.0.1'] })), undefined);
  });
});

describe('auto-approval of node serving certificates', () => {
  const serving = node({
    signerName: 'kubernetes.io/kubelet-serving',
    usages: ['digital signature', 'key encipherment', 'server auth'],
    altNames: ['127.0.0.1'],
    username: 'system:node:a',
    groups: ['system:nodes', 'system:authenticated'],
  });

  it('approves a node asking for its own, for IP addresses, and an admin asking for one', () => {
    assert.ok(autoApproval(serving));
    assert.ok(autoApproval({ ...serving, username: 'drover-admin', groups: ['system:masters', 'system:authenticated'] }));
  });

  it('leaves anyone else, DNS names, no names and client usages to a person', () => {
    assert.equal(autoApproval({ ...serving, username: 'system:node:b' }), undefined);
    assert.equal(autoApproval({ ...serving, username: 'system:bootstrap:drover', groups: ['system:bootstrappers'] }), undefined);
    assert.equal(autoApproval({ ...serving, altNames: ['127.0.0.1', 'kubernetes.default.svc'] }), undefined);
    assert.equal(autoApproval({ ...serving, altNames: [] }), undefined);
    assert.equal(autoApproval({ ...serving, usages: ['server auth', 'client auth'] }), undefined);
    assert.equal(autoApproval({ ...serving, subject: { commonName: 'system:node:a', organizations: ['system:masters'] } }), undefined);
  });
});

describe('what the kubernetes.io signers sign', () => {
  it('signs node client certificates as client certificates', () => {
    assert.deepEqual(signingPlan(node()), { usage: 'client', altNames: [] });
    assert.match((signingPlan(node({ subject: { commonName: 'alice' } })) as { failure: string }).failure, /system:node:<node name>/);
  });

  it('never signs a system:masters client certificate', () => {
    const masters = node({ signerName: 'kubernetes.io/kube-apiserver-client', subject: { commonName: 'eve', organizations: ['system:masters'] } });
    assert.match((signingPlan(masters) as { failure: string }).failure, /system:masters/);
    assert.deepEqual(signingPlan({ ...masters, subject: { commonName: 'alice', organizations: ['devs'] } }), { usage: 'client', altNames: [] });
  });

  it('signs a serving certificate only for the node itself, with names, for server auth', () => {
    const serving = node({
      signerName: 'kubernetes.io/kubelet-serving',
      usages: ['digital signature', 'server auth'],
      altNames: ['127.0.0.1', 'a.local'],
      username: 'system:node:a',
    });
    assert.deepEqual(signingPlan(serving), { usage: 'server', altNames: ['127.0.0.1', 'a.local'] });
    assert.match((signingPlan({ ...serving, username: 'system:node:b' }) as { failure: string }).failure, /only system:node:a may ask/);
    assert.deepEqual(signingPlan({ ...serving, username: 'drover-admin', groups: ['system:masters'] }), {
      usage: 'server',
      altNames: ['127.0.0.1', 'a.local'],
    });
    assert.match((signingPlan({ ...serving, altNames: [] }) as { failure: string }).failure, /at least one DNS name or IP address/);
    assert.match((signingPlan({ ...serving, usages: ['client auth'] }) as { failure: string }).failure, /not allowed/);
  });
});
