// CertificateSigningRequests through a real API server: who asks is the server's to say, what
// each path may change, who may approve, and what the certificate controller approves and signs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import type { KubeObject } from '../../api/meta.js';
import { TestServer } from '../../../test/support/apiserver/in-process-server.js';
import { ApiClient } from '../../client/api-client.js';
import { ApiStatusError } from '../../client/errors.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { testSecurity } from '../../../test/support/auth/security.js';
import { createCertificateRequest, generateKeyPair, type Subject } from '../pki/certificates.js';
import type { TlsConfig } from '../../client/config.js';

const PATH = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const NODE_A: Subject = { commonName: 'system:node:a', organizations: ['system:nodes'] };
const BOOTSTRAPPER: Subject = { commonName: 'system:bootstrap:test', organizations: ['system:bootstrappers'] };

let api: TestServer;
const clients: ApiClient[] = [];

async function clientAs(subject: Subject | 'admin'): Promise<ApiClient> {
  const { security, admin } = await testSecurity();
  const tls: TlsConfig = subject === 'admin' ? admin : await security.clientTls(subject);
  const client = new ApiClient({ server: api.url, namespace: 'default', tls });
  clients.push(client);
  return client;
}

async function csrBody(
  name: string,
  subject: Subject,
  signerName: string,
  usages: string[],
  altNames: string[] = [],
  extra: Record<string, unknown> = {},
): Promise<KubeObject> {
  const request = await createCertificateRequest(await generateKeyPair(), subject, altNames);
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request: Buffer.from(request).toString('base64'), signerName, usages, ...extra },
  };
}

const conditionTypes = (csr: KubeObject) => ((csr['status'] as { conditions?: Array<{ type: string }> } | undefined)?.conditions ?? []).map((c) => c.type);
const certificateOf = (csr: KubeObject) => Buffer.from((csr['status'] as { certificate?: string } | undefined)?.certificate ?? '', 'base64').toString();

async function issued(client: ApiClient, name: string): Promise<KubeObject> {
  return waitFor(`certificate of ${name}`, async () => {
    const csr = await client.request<KubeObject>('GET', `${PATH}/${name}`);
    return certificateOf(csr) !== '' || conditionTypes(csr).includes('Failed') ? csr : undefined;
  });
}

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    if (error instanceof ApiStatusError) return error.code;
    throw error;
  }
}

describe('CertificateSigningRequests', () => {
  before(async () => {
    api = await TestServer.start({ serviceAccountTokens: true });
  });

  after(async () => {
    for (const client of clients) client.close();
    await api.close();
  });

  it("signs a joining node's client certificate, recording the bootstrapper as requestor whatever it claims", async () => {
    const bootstrapper = await clientAs(BOOTSTRAPPER);
    await bootstrapper.request('POST', PATH, {
      body: await csrBody('join-a', NODE_A, 'kubernetes.io/kube-apiserver-client-kubelet', ['digital signature', 'client auth'], [], {
        username: 'admin',
        groups: ['system:masters'],
      }),
    });
    const csr = await issued(bootstrapper, 'join-a');
    const spec = csr['spec'] as { username: string; groups: string[] };
    assert.equal(spec.username, 'system:bootstrap:test');
    assert.deepEqual(spec.groups, ['system:bootstrappers', 'system:authenticated']);
    assert.deepEqual(conditionTypes(csr), ['Approved']);
    const cert = new X509Certificate(certificateOf(csr));
    assert.match(cert.subject, /CN=system:node:a/);
    assert.ok(cert.verify(new X509Certificate((await testSecurity()).security.pki.caPem).publicKey), 'signed by the cluster CA');
    const lifetimeDays = (Date.parse(cert.validTo) - Date.now()) / 86_400_000;
    assert.ok(lifetimeDays > 364 && lifetimeDays < 366, `a year by default, not ${lifetimeDays} days`);
  });

  it("approves a node renewing its own certificate, but not one asking for another node's", async () => {
    const nodeA = await clientAs(NODE_A);
    await nodeA.request('POST', PATH, {
      body: await csrBody('renew-a', NODE_A, 'kubernetes.io/kube-apiserver-client-kubelet', ['client auth'], [], { expirationSeconds: 3600 }),
    });
    const renewed = new X509Certificate(certificateOf(await issued(nodeA, 'renew-a')));
    const hours = (Date.parse(renewed.validTo) - Date.now()) / 3_600_000;
    assert.ok(hours > 0.9 && hours < 1.1, `expirationSeconds is honoured: ${hours} h`);
    await nodeA.request('POST', PATH, {
      body: await csrBody('steal-b', { commonName: 'system:node:b', organizations: ['system:nodes'] }, 'kubernetes.io/kube-apiserver-client-kubelet', [
        'client auth',
      ]),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(conditionTypes(await nodeA.request<KubeObject>('GET', `${PATH}/steal-b`)), [], 'left pending');
    // Nor may the node approve it itself.
    const csr = await nodeA.request<KubeObject>('GET', `${PATH}/steal-b`);
    csr['status'] = { conditions: [{ type: 'Approved', status: 'True', reason: 'Mine' }] };
    assert.equal(await status(nodeA.request('PUT', `${PATH}/steal-b/approval`, { body: csr })), 403);
  });

  it('lets an admin approve and deny through /approval only, and keeps spec and status out of plain updates', async () => {
    const admin = await clientAs('admin');
    await admin.request('POST', PATH, {
      body: await csrBody('alice', { commonName: 'alice', organizations: ['devs'] }, 'kubernetes.io/kube-apiserver-client', ['client auth']),
    });
    const csr = await admin.request<KubeObject>('GET', `${PATH}/alice`);
    // A plain update changes neither the approval nor the spec.
    const edited = structuredClone(csr);
    edited['status'] = { conditions: [{ type: 'Approved', status: 'True' }] };
    (edited['spec'] as Record<string, unknown>)['signerName'] = 'example.com/mine';
    edited.metadata.labels = { team: 'a' };
    const updated = await admin.request<KubeObject>('PUT', `${PATH}/alice`, { body: edited });
    assert.deepEqual(conditionTypes(updated), []);
    assert.equal((updated['spec'] as { signerName: string }).signerName, 'kubernetes.io/kube-apiserver-client');
    assert.deepEqual(updated.metadata.labels, { team: 'a' });
    // /status may not approve.
    const viaStatus = structuredClone(updated);
    viaStatus['status'] = { conditions: [{ type: 'Approved', status: 'True' }] };
    assert.deepEqual(conditionTypes(await admin.request<KubeObject>('PUT', `${PATH}/alice/status`, { body: viaStatus })), []);
    // /approval does, stamping the condition, and the controller signs.
    const approval = structuredClone(updated);
    approval['status'] = { conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove' }] };
    const approvedCsr = await admin.request<KubeObject>('PUT', `${PATH}/alice/approval`, { body: approval });
    const condition = (approvedCsr['status'] as { conditions: Array<Record<string, string>> }).conditions[0]!;
    assert.ok(condition['lastUpdateTime'] && condition['lastTransitionTime']);
    assert.match(new X509Certificate(certificateOf(await issued(admin, 'alice'))).subject, /CN=alice\nO=devs/);
    // Denying it now is refused.
    const deny = await admin.request<KubeObject>('GET', `${PATH}/alice`);
    (deny['status'] as { conditions: unknown[] }).conditions.push({ type: 'Denied', status: 'True' });
    assert.equal(await status(admin.request('PUT', `${PATH}/alice/approval`, { body: deny })), 422);
  });

  it('refuses system:masters certificates from kube-apiserver-client to anyone but masters', async () => {
    const bootstrapper = await clientAs(BOOTSTRAPPER);
    const body = await csrBody('eve', { commonName: 'eve', organizations: ['system:masters'] }, 'kubernetes.io/kube-apiserver-client', ['client auth']);
    assert.equal(await status(bootstrapper.request('POST', PATH, { body })), 403);
  });

  it('fails a serving certificate asked for on behalf of a node by someone else, even approved', async () => {
    const admin = await clientAs('admin');
    const bootstrapper = await clientAs(BOOTSTRAPPER);
    await bootstrapper.request('POST', PATH, {
      body: await csrBody('serve-a', NODE_A, 'kubernetes.io/kubelet-serving', ['digital signature', 'server auth'], ['127.0.0.1']),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const csr = await admin.request<KubeObject>('GET', `${PATH}/serve-a`);
    assert.deepEqual(conditionTypes(csr), [], 'not approved by itself');
    csr['status'] = { conditions: [{ type: 'Approved', status: 'True' }] };
    await admin.request('PUT', `${PATH}/serve-a/approval`, { body: csr });
    assert.deepEqual(conditionTypes(await issued(admin, 'serve-a')), ['Approved', 'Failed']);
  });

  it("approves and signs a node's own serving certificate for its IP addresses, not for names", async () => {
    const nodeA = await clientAs(NODE_A);
    await nodeA.request('POST', PATH, {
      body: await csrBody('serve-a2', NODE_A, 'kubernetes.io/kubelet-serving', ['digital signature', 'server auth'], ['127.0.0.1', '10.0.0.7']),
    });
    const cert = new X509Certificate(certificateOf(await issued(nodeA, 'serve-a2')));
    assert.equal(cert.subjectAltName, 'IP Address:127.0.0.1, IP Address:10.0.0.7');
    assert.match(cert.subject, /CN=system:node:a/);
    await nodeA.request('POST', PATH, {
      body: await csrBody('serve-a3', NODE_A, 'kubernetes.io/kubelet-serving', ['digital signature', 'server auth'], ['kubernetes.default.svc']),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(conditionTypes(await nodeA.request<KubeObject>('GET', `${PATH}/serve-a3`)), [], 'a DNS name waits for a person');
  });
});
