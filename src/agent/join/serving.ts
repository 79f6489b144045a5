// The agent's serving certificate for its streaming endpoint (logs, exec, port-forward), as a
// kubelet's: CN=system:node:<name>, for the node's address, signed by the cluster CA through a
// kubernetes.io/kubelet-serving CertificateSigningRequest that the agent sends under its own
// identity (the server approves a node's own request, or one sent by an admin's kubeconfig). The
// API server checks both the address and the node name when it dials (agent-dial.ts). Kept in
// `<data-dir>/pki/serving.{key,crt}`; reused while it covers the addresses and has at least 20%
// of its lifetime left.
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiClient, Logger } from '../../client/index.js';
import { altNamesOf, certificateSubject, lifetimeLeft } from '../../auth/pki/certificates.js';
import { nodeSubject } from '../../auth/components.js';
import { KUBELET_SERVING, SERVING_USAGES } from '../../auth/csr/signers.js';
import { requestCertificate } from './csr-client.js';
import { pkiDir } from './pki-files.js';
import { RENEW_AT_LIFETIME_LEFT } from './join.js';

export interface ServingOptions {
  nodeName: string;
  dataDir: string;
  /** The addresses the API server dials the agent at (its node address). */
  altNames: string[];
  logger: Logger;
}

export interface ServingCertificate {
  cert: string;
  key: string;
}

export async function servingCertificate(api: ApiClient, options: ServingOptions, renew = false): Promise<ServingCertificate> {
  const dir = pkiDir(options.dataDir);
  if (!renew) {
    const existing = await readServing(dir);
    if (existing && usable(existing.cert, options)) return existing;
  }
  const issued = await requestCertificate(
    api,
    {
      subject: nodeSubject(options.nodeName),
      signerName: KUBELET_SERVING,
      usages: SERVING_USAGES,
      altNames: options.altNames,
      namePrefix: `node-serving-${options.nodeName}`.slice(0, 200),
    },
    options.logger,
  );
  const serving = { cert: issued.certPem, key: issued.keyPem };
  await writeServing(dir, serving);
  return serving;
}

function usable(cert: string, options: ServingOptions): boolean {
  const covered = new Set(altNamesOf(cert));
  return (
    certificateSubject(cert).commonName === nodeSubject(options.nodeName).commonName &&
    options.altNames.every((name) => covered.has(name)) &&
    lifetimeLeft(cert) >= RENEW_AT_LIFETIME_LEFT
  );
}

async function readServing(dir: string): Promise<ServingCertificate | undefined> {
  try {
    return { cert: await readFile(join(dir, 'serving.crt'), 'utf8'), key: await readFile(join(dir, 'serving.key'), 'utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function writeServing(dir: string, serving: ServingCertificate): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  for (const [file, text] of [
    ['serving.key', serving.key],
    ['serving.crt', serving.cert],
  ] as const) {
    await writeFile(join(dir, `${file}.tmp`), text, { mode: 0o600 });
    await rename(join(dir, `${file}.tmp`), join(dir, file));
  }
}
