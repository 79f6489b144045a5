// The cluster's certificates in the data dir (`<data-dir>/tls/`): the CA, made on first start and
// kept (10 years, as k3s), and the API server's serving certificate (1 year), made again at start
// when under 90 days are left or when it lacks a name the server now answers to (--tls-san).
// Every file is its owner's only: the CA key signs any identity, the admin included.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  altNamesOf,
  createCertificateAuthority,
  daysLeft,
  issueCertificate,
  loadKeyPair,
  pemHash,
  type CertificateUsage,
  type IssuedCertificate,
  type KeyPair,
  type Subject,
} from './certificates.js';

export const CA_DAYS = 3650;
export const LEAF_DAYS = 365;
/** A leaf with fewer days left is made again at start (k3s' rule). */
export const RENEW_BELOW_DAYS = 90;

export interface ClusterPki {
  caPem: string;
  /** pemHash of the CA: what join tokens pin. */
  caHash: string;
  /** The API server's serving certificate and key. */
  server: IssuedCertificate;
  /** A new client certificate (and key) for this identity, signed by the CA. */
  issue(subject: Subject, usage: CertificateUsage, options?: { days?: number; altNames?: string[]; publicKey?: CryptoKey }): Promise<IssuedCertificate>;
}

export interface ClusterPkiOptions {
  /** The data dir; the certificates live in its tls/ folder. */
  dataDir: string;
  /** Names and addresses the serving certificate must cover. */
  altNames: string[];
  /**
   * Servers that share a store share one CA, kept in the store (shared-ca.ts): given, this
   * returns it, making it with `make` if no server has yet.
   */
  sharedCa?: (make: () => Promise<IssuedCertificate>) => Promise<IssuedCertificate>;
}

export async function loadClusterPki(options: ClusterPkiOptions): Promise<ClusterPki> {
  const dir = join(options.dataDir, 'tls');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const ca = options.sharedCa ? await asAuthority(await options.sharedCa(makeCa)) : await loadOrCreateCa(dir);
  const server = await loadOrIssueServing(dir, ca, options.altNames);
  return {
    caPem: ca.certPem,
    caHash: pemHash(ca.certPem),
    server,
    issue: issuerOf(ca),
  };
}

/** The CA of an existing data dir, to issue certificates with (tools, tests); never makes one. */
export async function openClusterCa(dataDir: string): Promise<Pick<ClusterPki, 'caPem' | 'issue'>> {
  const pair = await readPair(join(dataDir, 'tls'), 'ca');
  if (!pair) throw new Error(`${dataDir} holds no cluster CA (tls/ca.crt, tls/ca.key)`);
  const ca = await asAuthority(pair);
  return { caPem: ca.certPem, issue: issuerOf(ca) };
}

function issuerOf(ca: CertificateAuthority): ClusterPki['issue'] {
  return (subject, usage, options = {}) =>
    issueCertificate({
      ca,
      subject,
      usage,
      days: options.days ?? LEAF_DAYS,
      ...(options.altNames ? { altNames: options.altNames } : {}),
      ...(options.publicKey ? { publicKey: options.publicKey } : {}),
    });
}

type CertificateAuthority = KeyPair & { certPem: string };

async function loadOrCreateCa(dir: string): Promise<CertificateAuthority> {
  const existing = await readPair(dir, 'ca');
  if (existing) return asAuthority(existing);
  const made = await makeCa();
  await writePair(dir, 'ca', made);
  return asAuthority(made);
}

function makeCa(): Promise<IssuedCertificate> {
  return createCertificateAuthority(`drover-ca@${Math.floor(Date.now() / 1000)}`, CA_DAYS);
}

async function asAuthority(pair: IssuedCertificate): Promise<CertificateAuthority> {
  return { ...(await loadKeyPair(pair.keyPem, pair.certPem)), certPem: pair.certPem };
}

async function loadOrIssueServing(dir: string, ca: CertificateAuthority, altNames: string[]): Promise<IssuedCertificate> {
  const existing = await readPair(dir, 'server');
  if (existing && daysLeft(existing.certPem) >= RENEW_BELOW_DAYS) {
    const covered = new Set(altNamesOf(existing.certPem));
    if (altNames.every((name) => covered.has(name))) return existing;
  }
  const made = await issueCertificate({ ca, subject: { commonName: 'drover-apiserver' }, usage: 'server', days: LEAF_DAYS, altNames });
  await writePair(dir, 'server', made);
  return made;
}

async function readPair(dir: string, name: string): Promise<IssuedCertificate | undefined> {
  try {
    return { certPem: await readFile(join(dir, `${name}.crt`), 'utf8'), keyPem: await readFile(join(dir, `${name}.key`), 'utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function writePair(dir: string, name: string, pair: IssuedCertificate): Promise<void> {
  await writeFile(join(dir, `${name}.key`), pair.keyPem, { mode: 0o600 });
  await writeFile(join(dir, `${name}.crt`), pair.certPem, { mode: 0o600 });
}
