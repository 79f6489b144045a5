// For tests that start API servers in their own process: one cluster PKI per test process (made
// once, in a temporary folder removed at exit), with the admin's client credentials. Servers
// started here serve HTTPS and authenticate as `drover server` does.
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClientConfig, TlsConfig } from '../../../src/client/config.js';
import { ADMIN_SUBJECT, clusterSecurity, type ClusterSecurity } from '../../../src/auth/cluster-security.js';
import { loadClusterPki } from '../../../src/auth/pki/cluster-pki.js';
import { loadSigningKey } from '../../../src/auth/serviceaccount/signing-key.js';
import { ServiceAccountTokens } from '../../../src/auth/serviceaccount/tokens.js';

export interface TestSecurity {
  security: ClusterSecurity;
  /** The admin's client TLS settings (group system:masters). */
  admin: TlsConfig;
}

let shared: Promise<TestSecurity> | undefined;

export function testSecurity(): Promise<TestSecurity> {
  shared ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'drover-test-pki-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const pki = await loadClusterPki({ dataDir: dir, altNames: ['localhost', '127.0.0.1', '::1'] });
    const security = clusterSecurity(pki, new ServiceAccountTokens(await loadSigningKey(join(dir, 'tls'))));
    return { security, admin: await security.clientTls(ADMIN_SUBJECT) };
  })();
  return shared;
}

/** The serving TLS, authentication, service-account tokens and CSR signer to spread into startApiServer's options. */
export async function testServing(): Promise<{
  tls: ClusterSecurity['tls'];
  authenticator: ClusterSecurity['authenticator'];
  serviceAccounts: ClusterSecurity['serviceAccounts'];
  signer: ClusterSecurity['pki'];
}> {
  const { security } = await testSecurity();
  return { tls: security.tls, authenticator: security.authenticator, serviceAccounts: security.serviceAccounts, signer: security.pki };
}

/** A client configuration for the admin of a test server at `url`. */
export async function adminConfig(url: string): Promise<ClientConfig> {
  return { server: url, namespace: 'default', tls: (await testSecurity()).admin };
}
