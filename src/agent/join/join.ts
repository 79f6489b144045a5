// How an agent gets its identity, as a k3s agent does with its join token
// (`D10<sha256 of the CA PEM>::<secret>`, src/auth/join-token.ts):
//   1. it fetches the CA from a server's /cacerts without verifying (it has nothing to verify
//      with yet) and keeps it only if its hash is the token's: a server that is not the
//      cluster's cannot pass off a CA of its own;
//   2. it asks for a client certificate for `system:node:<name>` (a CertificateSigningRequest
//      sent with the token's secret as bearer token: user system:bootstrap:drover, which may do
//      nothing else), which the server approves and signs;
//   3. it keeps CA, key and certificate in `<data-dir>/pki/` and from then on connects with them.
// A restarted agent reuses them (no token needed); one with less than 20% of the certificate's
// lifetime left asks for a new one at start, with its current certificate (rotation.ts renews
// while it runs).
import { get } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TlsConfig } from '../../client/config.js';
import { ApiClient, type Logger } from '../../client/index.js';
import { serverUrls } from '../../client/http-transport.js';
import { parseJoinToken } from '../../auth/join-token.js';
import { certificateSubject, lifetimeLeft, pemHash } from '../../auth/pki/certificates.js';
import { nodeSubject } from '../../auth/components.js';
import { CLIENT_USAGES, KUBE_APISERVER_CLIENT_KUBELET } from '../../auth/csr/signers.js';
import { requestCertificate } from './csr-client.js';
import { pkiDir, readPkiFiles, writePkiFiles, type PkiFiles } from './pki-files.js';

/** Below this share of its lifetime left, a certificate is renewed (at start, and while running). */
export const RENEW_AT_LIFETIME_LEFT = 0.2;
const UNREACHABLE_RETRY_MS = 2000;

export interface JoinOptions {
  /** API server URLs, comma-separated. */
  servers: string;
  /** The join token; needed only when the data dir holds no usable certificate. */
  token?: string;
  nodeName: string;
  /** The agent's data dir (absolute); credentials live in its pki/ folder. */
  dataDir: string;
  logger: Logger;
}

export class JoinError extends Error {
  override name = 'JoinError';
}

export function tlsOf(files: PkiFiles): TlsConfig {
  return { ca: Buffer.from(files.caPem), cert: Buffer.from(files.certPem), key: Buffer.from(files.keyPem) };
}

/** The agent's TLS client settings: from its data dir, renewed, or made by joining with the token. */
export async function joinCluster(options: JoinOptions): Promise<PkiFiles> {
  const token = options.token === undefined ? undefined : parseJoinToken(options.token);
  if (token && token.caHash === '') {
    throw new JoinError("the join token has no CA hash: use the full token (D10<hash>::<secret>) from the server's <data-dir>/token");
  }
  const existing = await readPkiFiles(options.dataDir);
  if (existing && token && pemHash(existing.caPem) !== token.caHash) {
    throw new JoinError(
      `the CA in ${pkiDir(options.dataDir)}/ca.crt is not the one the token names: this agent belonged to another cluster; remove ${pkiDir(options.dataDir)} to join this one`,
    );
  }
  const usable = existing && certificateSubject(existing.certPem).commonName === nodeSubject(options.nodeName).commonName && lifetimeLeft(existing.certPem) > 0;
  if (existing && usable) {
    if (lifetimeLeft(existing.certPem) >= RENEW_AT_LIFETIME_LEFT) return existing;
    try {
      return await renewCertificate(options, existing);
    } catch (error) {
      // Still valid: run with it, and let rotation try again.
      options.logger.warn('could not renew the client certificate at start; using the current one', { error });
      return existing;
    }
  }
  if (!token) {
    throw new JoinError(`no usable client certificate in ${pkiDir(options.dataDir)}: start the agent with --token (the server's <data-dir>/token) to join`);
  }
  const caPem = await fetchTrustedCa(options.servers, token.caHash, options.logger);
  const api = new ApiClient(
    { server: options.servers, namespace: 'default', token: token.secret, tls: { ca: Buffer.from(caPem) } },
    { userAgent: 'drover-agent-bootstrap' },
  );
  try {
    const issued = await requestNodeCertificate(api, options);
    const files = { caPem, ...issued };
    await writePkiFiles(options.dataDir, files);
    options.logger.info(`joined the cluster as ${nodeSubject(options.nodeName).commonName}; credentials in ${pkiDir(options.dataDir)}`);
    return files;
  } finally {
    api.close();
  }
}

/** A new key and certificate, asked for with the current certificate, written to the data dir. */
export async function renewCertificate(
  options: Pick<JoinOptions, 'servers' | 'nodeName' | 'dataDir' | 'logger'>,
  current: PkiFiles,
  api?: ApiClient,
): Promise<PkiFiles> {
  const client = api ?? new ApiClient({ server: options.servers, namespace: 'default', tls: tlsOf(current) }, { userAgent: 'drover-agent' });
  try {
    const files = { caPem: current.caPem, ...(await requestNodeCertificate(client, options)) };
    await writePkiFiles(options.dataDir, files);
    options.logger.info('renewed the client certificate');
    return files;
  } finally {
    if (!api) client.close();
  }
}

function requestNodeCertificate(api: ApiClient, options: Pick<JoinOptions, 'nodeName' | 'logger'>): Promise<{ keyPem: string; certPem: string }> {
  return requestCertificate(
    api,
    {
      subject: nodeSubject(options.nodeName),
      signerName: KUBE_APISERVER_CLIENT_KUBELET,
      usages: CLIENT_USAGES,
      namePrefix: `node-csr-${options.nodeName}`.slice(0, 200),
    },
    options.logger,
  );
}

/**
 * The CA PEM from the first server that answers /cacerts, if its hash is `caHash`. Servers that
 * cannot be reached are retried (the agent may start first); a CA that does not match is refused.
 */
export async function fetchTrustedCa(servers: string, caHash: string, logger: Logger): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const failures: string[] = [];
    for (const url of serverUrls(servers)) {
      let pem: string;
      try {
        pem = await fetchText(new URL('cacerts', url.href.endsWith('/') ? url : new URL(`${url.href}/`)));
      } catch (error) {
        failures.push(`${url.origin}: ${(error as Error).message}`);
        continue;
      }
      if (pemHash(pem) !== caHash) {
        throw new JoinError(
          `the CA that ${url.origin} serves does not match the join token (sha256 ${pemHash(pem)}, the token names ${caHash}): refusing to join; check the token and the --server URL`,
        );
      }
      return pem;
    }
    if (attempt === 1 || attempt % 15 === 0) logger.warn(`no server reachable for the cluster CA, retrying: ${failures.join('; ')}`);
    await sleep(UNREACHABLE_RETRY_MS);
  }
}

function fetchText(url: URL): Promise<string> {
  return new Promise((resolve, reject) => {
    // Unverified on purpose: the hash check decides whether the answer is trusted.
    const req = get(url, { rejectUnauthorized: false, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`GET /cacerts: HTTP ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('GET /cacerts: no answer within 10 s')));
    req.on('error', reject);
  });
}
