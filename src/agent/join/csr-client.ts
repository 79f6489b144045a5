// Asking the cluster for a certificate: a new key, a CertificateSigningRequest for it, and the
// wait until the signer has written status.certificate (the server auto-approves a node's own
// client certificate; anything else waits for `kubectl certificate approve`).
import { randomBytes } from 'node:crypto';
import type { KubeObject } from '../../api/meta.js';
import type { ApiClient, Logger } from '../../client/index.js';
import { createCertificateRequest, generateKeyPair, type Subject } from '../../auth/pki/certificates.js';

const PATH = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const POLL_MS = 250;
const REMIND_MS = 30_000;

export interface CertificateAsk {
  subject: Subject;
  signerName: string;
  usages: string[];
  /** Serving certificates: DNS names and IP addresses. */
  altNames?: string[];
  /** Names the request `<prefix>-<random>`. */
  namePrefix: string;
}

/** Key and certificate (PEM) once issued; throws when the request is denied or fails. */
export async function requestCertificate(
  api: ApiClient,
  ask: CertificateAsk,
  logger: Logger,
  signal?: AbortSignal,
): Promise<{ keyPem: string; certPem: string }> {
  const pair = await generateKeyPair();
  const request = await createCertificateRequest(pair, ask.subject, ask.altNames ?? []);
  const name = `${ask.namePrefix}-${randomBytes(4).toString('hex')}`;
  await api.request('POST', PATH, {
    body: {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name },
      spec: { request: Buffer.from(request).toString('base64'), signerName: ask.signerName, usages: ask.usages },
    },
  });
  return { keyPem: pair.keyPem, certPem: await waitForCertificate(api, name, logger, signal) };
}

async function waitForCertificate(api: ApiClient, name: string, logger: Logger, signal?: AbortSignal): Promise<string> {
  let remindAt = Date.now() + REMIND_MS;
  for (;;) {
    if (signal?.aborted) throw new Error(`stopped while waiting for certificate request ${name}`);
    const csr = await api.request<KubeObject>('GET', `${PATH}/${name}`);
    const status = (csr['status'] ?? {}) as { certificate?: string; conditions?: Array<{ type?: string; reason?: string; message?: string }> };
    const refused = (status.conditions ?? []).find((c) => c.type === 'Denied' || c.type === 'Failed');
    if (refused)
      throw new Error(
        `certificate request ${name} was ${refused.type === 'Denied' ? 'denied' : 'not signed'}: ${refused.reason ?? ''} ${refused.message ?? ''}`.trim(),
      );
    if (status.certificate) return Buffer.from(status.certificate, 'base64').toString('utf8');
    if (Date.now() >= remindAt) {
      logger.info(`waiting for certificate request ${name} to be approved: kubectl certificate approve ${name}`);
      remindAt = Date.now() + REMIND_MS;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
