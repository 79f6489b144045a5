// An agent joining an in-process API server with the join token, reusing and renewing its
// certificate (at start below 20% of its lifetime left, and while it runs at 80%).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../../api/meta.js';
import { RequestAuthenticator } from '../../auth/authn/authenticator.js';
import { bootstrapTokenAuthenticator } from '../../auth/authn/bootstrap-token.js';
import { nodeSubject } from '../../auth/components.js';
import { formatJoinToken } from '../../auth/join-token.js';
import { testSecurity } from '../../../test/support/auth/security.js';
import { ApiClient } from '../../client/api-client.js';
import { silentLogger } from '../../client/logger.js';
import { TestServer } from '../../../test/support/apiserver/in-process-server.js';
import { JoinError, joinCluster, tlsOf } from './join.js';
import { readPkiFiles, writePkiFiles } from './pki-files.js';
import { startCertificateRotation } from './rotation.js';
import { waitFor } from '../../../test/support/wait-for.js';

const SECRET = 'join-test-secret-0123456789';
const DAY_SECONDS = 86_400;

let dir: string;
let api: TestServer;
let token: string;
let admin: ApiClient;

const csrNames = async () =>
  (await admin.request<{ items: KubeObject[] }>('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests')).items.map((csr) => csr.metadata.name!);
const daysLeftOf = (certPem: string) => (Date.parse(new X509Certificate(certPem).validTo) - Date.now()) / 86_400_000;

/** Credentials for `node` whose certificate runs out `seconds` from now (issued backdated, as every certificate is). */
async function shortLived(dataDir: string, node: string, seconds: number): Promise<void> {
  const { security } = await testSecurity();
  const issued = await security.pki.issue(nodeSubject(node), 'client', { days: seconds / DAY_SECONDS });
  await writePkiFiles(dataDir, { caPem: security.pki.caPem, keyPem: issued.keyPem, certPem: issued.certPem });
}

describe('joining with a token', () => {
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drover-join-unit-'));
    // As `drover server`: the token's secret authenticates a bootstrapper.
    api = await TestServer.start({ authenticator: new RequestAuthenticator([bootstrapTokenAuthenticator(SECRET)]) });
    token = formatJoinToken({ caHash: (await testSecurity()).security.pki.caHash, secret: SECRET });
    admin = api.client();
  });

  after(async () => {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('joins: checks the CA against the token, gets a node certificate, keeps it 0600', async () => {
    const dataDir = join(dir, 'a');
    const files = await joinCluster({ servers: api.url, token, nodeName: 'a', dataDir, logger: silentLogger });
    assert.match(new X509Certificate(files.certPem).subject, /CN=system:node:a\nO=system:nodes/);
    assert.ok(daysLeftOf(files.certPem) > 364);
    assert.deepEqual(await readPkiFiles(dataDir), files);
    assert.equal((await stat(join(dataDir, 'pki'))).mode & 0o777, 0o700);
    assert.equal((await stat(join(dataDir, 'pki', 'client.key'))).mode & 0o777, 0o600);
    const client = new ApiClient({ server: api.url, namespace: 'default', tls: tlsOf(files) });
    const review = await client.request<{ status: { userInfo: { username: string } } }>('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
    client.close();
    assert.equal(review.status.userInfo.username, 'system:node:a');
    // Joined again (a restart): the same files, no new request.
    const before = await csrNames();
    assert.deepEqual(await joinCluster({ servers: api.url, token, nodeName: 'a', dataDir, logger: silentLogger }), files);
    assert.deepEqual(await joinCluster({ servers: api.url, nodeName: 'a', dataDir, logger: silentLogger }), files, 'no token needed');
    assert.deepEqual(await csrNames(), before);
  });

  it("refuses a CA that is not the token's, and credentials of another cluster", async () => {
    const wrong = formatJoinToken({ caHash: 'f'.repeat(64), secret: SECRET });
    await assert.rejects(
      joinCluster({ servers: api.url, token: wrong, nodeName: 'b', dataDir: join(dir, 'b'), logger: silentLogger }),
      (error: Error) => error instanceof JoinError && /does not match the join token/.test(error.message),
    );
    assert.equal(await readPkiFiles(join(dir, 'b')), undefined);
    await assert.rejects(
      joinCluster({ servers: api.url, token: wrong, nodeName: 'a', dataDir: join(dir, 'a'), logger: silentLogger }),
      /not the one the token names/,
    );
    await assert.rejects(joinCluster({ servers: api.url, nodeName: 'c', dataDir: join(dir, 'c'), logger: silentLogger }), /start the agent with --token/);
  });

  it('renews at start when less than 20% of the lifetime is left, with its own certificate', async () => {
    const dataDir = join(dir, 'd');
    await shortLived(dataDir, 'd', 30); // 30 s of a 5.5 min lifetime (backdated 5 min): 9% left
    const before = await readPkiFiles(dataDir);
    const files = await joinCluster({ servers: api.url, nodeName: 'd', dataDir, logger: silentLogger });
    assert.notEqual(files.certPem, before!.certPem);
    assert.notEqual(files.keyPem, before!.keyPem, 'a new key');
    assert.ok(daysLeftOf(files.certPem) > 364);
    const renewal = (await admin.request<{ items: KubeObject[] }>('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests')).items.find((csr) =>
      csr.metadata.name!.startsWith('node-csr-d-'),
    )!;
    assert.equal((renewal['spec'] as { username: string }).username, 'system:node:d', 'asked as the node itself');
  });

  it('renews while running at 80% of the lifetime, and the client uses the new certificate', async () => {
    const dataDir = join(dir, 'e');
    // 80% of a lifetime of 300 s (backdating) + 77 s falls about 1.6 s from now.
    await shortLived(dataDir, 'e', 77);
    const files = (await readPkiFiles(dataDir))!;
    const client = new ApiClient({ server: api.url, namespace: 'default', tls: tlsOf(files) });
    const rotation = startCertificateRotation(client, files, { servers: api.url, nodeName: 'e', dataDir, logger: silentLogger });
    try {
      const renewed = await waitFor(
        'the renewed certificate',
        () => (client.config.tls?.cert?.toString() !== files.certPem ? client.config.tls!.cert!.toString() : undefined),
        10_000,
      );
      assert.ok(daysLeftOf(renewed) > 364);
      assert.equal((await readPkiFiles(dataDir))!.certPem, renewed);
      await client.request('GET', '/api/v1/nodes');
    } finally {
      rotation.stop();
      client.close();
    }
  });
});
