// The cluster's certificates: made once and kept, leaves renewed under 90 days or when a name is
// missing, client certificates read back as user and groups, and a request checked by the CA.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { certificateSubject, createCertificateRequest, daysLeft, generateKeyPair, readCertificateRequest } from './certificates.js';
import { CA_DAYS, LEAF_DAYS, loadClusterPki } from './cluster-pki.js';

describe('cluster PKI', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drover-pki-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('makes a CA (10 years) and a serving certificate (1 year) once, owner-only, and keeps them', async () => {
    const first = await loadClusterPki({ dataDir: dir, altNames: ['localhost', '127.0.0.1'] });
    assert.ok(Math.abs(daysLeft(first.caPem) - CA_DAYS) < 1);
    assert.ok(Math.abs(daysLeft(first.server.certPem) - LEAF_DAYS) < 1);
    for (const file of ['ca.crt', 'ca.key', 'server.crt', 'server.key']) assert.equal((await stat(join(dir, 'tls', file))).mode & 0o777, 0o600, file);
    assert.equal((await stat(join(dir, 'tls'))).mode & 0o777, 0o700);
    const again = await loadClusterPki({ dataDir: dir, altNames: ['localhost', '127.0.0.1'] });
    assert.equal(again.caPem, first.caPem);
    assert.equal(again.server.certPem, first.server.certPem);
    const serving = new X509Certificate(first.server.certPem);
    assert.ok(serving.checkIssued(new X509Certificate(first.caPem)));
    assert.match(serving.subjectAltName ?? '', /DNS:localhost.*IP Address:127\.0\.0\.1/);
  });

  it('makes the serving certificate again for a new --tls-san, under the same CA', async () => {
    const before = await readFile(join(dir, 'tls', 'server.crt'), 'utf8');
    const pki = await loadClusterPki({ dataDir: dir, altNames: ['localhost', '127.0.0.1', 'drover.example'] });
    assert.notEqual(pki.server.certPem, before);
    assert.match(new X509Certificate(pki.server.certPem).subjectAltName ?? '', /DNS:drover\.example/);
  });

  it('renews a serving certificate with under 90 days left', async () => {
    const other = await mkdtemp(join(tmpdir(), 'drover-pki-renew-'));
    try {
      const pki = await loadClusterPki({ dataDir: other, altNames: ['localhost'] });
      const short = await pki.issue({ commonName: 'drover-apiserver' }, 'server', { days: 30, altNames: ['localhost'] });
      await writeFile(join(other, 'tls', 'server.crt'), short.certPem);
      await writeFile(join(other, 'tls', 'server.key'), short.keyPem);
      const renewed = await loadClusterPki({ dataDir: other, altNames: ['localhost'] });
      assert.ok(daysLeft(renewed.server.certPem) > 300);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it("issues client certificates whose CN and O are the user and groups, also for a request's key", async () => {
    const pki = await loadClusterPki({ dataDir: dir, altNames: ['localhost'] });
    const issued = await pki.issue({ commonName: 'alice', organizations: ['dev', 'ops'] }, 'client');
    assert.deepEqual(certificateSubject(issued.certPem), { commonName: 'alice', organizations: ['dev', 'ops'] });
    const pair = await generateKeyPair();
    const request = await readCertificateRequest(await createCertificateRequest(pair, { commonName: 'system:node:a', organizations: ['system:nodes'] }));
    const signed = await pki.issue(request.subject, 'client', { publicKey: request.publicKey });
    assert.equal(signed.keyPem, '');
    assert.deepEqual(certificateSubject(signed.certPem), { commonName: 'system:node:a', organizations: ['system:nodes'] });
    assert.ok(new X509Certificate(signed.certPem).checkIssued(new X509Certificate(pki.caPem)));
  });
});
