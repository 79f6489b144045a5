// X.509 for the cluster: a self-signed CA, and leaf certificates it signs for servers (HTTPS)
// and clients (CN = user, O = groups, as Kubernetes reads them). Keys are ECDSA P-256: a key
// pair takes about a millisecond, where RSA 2048 takes tens, and Go's TLS (kubectl) accepts them.
//
// @peculiar/x509 builds and parses the ASN.1 (node:crypto can read a certificate but not make
// one); it resolves its algorithms through tsyringe, which needs the Reflect metadata polyfill
// loaded first.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import { isIP } from 'node:net';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const SUBJECT_ALT_NAME_OID = '2.5.29.17';
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Clocks of two machines differ: a certificate is valid from a little before it was made. */
const BACKDATE_MS = 5 * 60 * 1000;

export interface KeyPair {
  /** PKCS#8 PEM. */
  keyPem: string;
  keys: CryptoKeyPair;
}

export interface IssuedCertificate {
  certPem: string;
  keyPem: string;
}

export interface Subject {
  commonName: string;
  /** Organizations: Kubernetes' groups. */
  organizations?: string[];
}

export type CertificateUsage = 'server' | 'client';

export async function generateKeyPair(): Promise<KeyPair> {
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  return { keys, keyPem: await keyToPem(keys.privateKey) };
}

export async function loadKeyPair(keyPem: string, certPem: string): Promise<KeyPair> {
  const der = x509.PemConverter.decodeFirst(keyPem);
  const privateKey = await webcrypto.subtle.importKey('pkcs8', der, ALGORITHM, true, ['sign']);
  const publicKey = await new x509.X509Certificate(certPem).publicKey.export(ALGORITHM, ['verify']);
  return { keyPem, keys: { privateKey, publicKey } as CryptoKeyPair };
}

export async function createCertificateAuthority(commonName: string, days: number): Promise<IssuedCertificate> {
  const pair = await generateKeyPair();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: distinguishedName({ commonName }),
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(now + days * DAY_MS),
    keys: pair.keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(pair.keys.publicKey),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: pair.keyPem };
}

export interface IssueOptions {
  ca: KeyPair & { certPem: string };
  subject: Subject;
  usage: CertificateUsage;
  days: number;
  /** Server certificates: the DNS names and IP addresses clients may dial. */
  altNames?: string[];
  /** Sign this public key (from a certificate signing request) instead of making a new pair. */
  publicKey?: CryptoKey;
}

/** A leaf certificate signed by the CA; keyPem is '' when the caller brought the public key. */
export async function issueCertificate(options: IssueOptions): Promise<IssuedCertificate> {
  const pair = options.publicKey ? undefined : await generateKeyPair();
  const publicKey = options.publicKey ?? pair!.keys.publicKey;
  const caCert = new x509.X509Certificate(options.ca.certPem);
  const now = Date.now();
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
    new x509.ExtendedKeyUsageExtension([options.usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth]),
    await x509.AuthorityKeyIdentifierExtension.create(caCert, false),
  ];
  if (options.altNames && options.altNames.length > 0) {
    extensions.push(altNamesExtension(options.altNames));
  }
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: distinguishedName(options.subject),
    issuer: caCert.subject,
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(now + options.days * DAY_MS),
    publicKey,
    signingKey: options.ca.keys.privateKey,
    signingAlgorithm: ALGORITHM,
    extensions,
  });
  return { certPem: cert.toString('pem'), keyPem: pair?.keyPem ?? '' };
}

/** Days until the certificate expires (negative once it has). */
export function daysLeft(certPem: string, now = Date.now()): number {
  return (new x509.X509Certificate(certPem).notAfter.getTime() - now) / DAY_MS;
}

/** The DNS names and IP addresses a server certificate covers. */
export function altNamesOf(certPem: string): string[] {
  const extension = new x509.X509Certificate(certPem).getExtension(x509.SubjectAlternativeNameExtension);
  return extension ? extension.names.items.map((name) => name.value) : [];
}

/** The SHA-256 of the certificate's PEM text: what a join token pins (as k3s' K10<hash> tokens). */
export function pemHash(certPem: string): string {
  return createHash('sha256').update(certPem).digest('hex');
}

export interface CertificateRequestInfo {
  subject: Subject;
  /** DNS names and IP addresses the request asks for (a serving certificate's). */
  altNames: string[];
  publicKey: CryptoKey;
}

/**
 * A PKCS#10 request (PEM) for a certificate with this subject, signed by the pair's key;
 * `altNames` (DNS names, IP addresses) for a serving certificate.
 */
export async function createCertificateRequest(pair: KeyPair, subject: Subject, altNames: string[] = []): Promise<string> {
  const extensions = altNames.length > 0 ? [altNamesExtension(altNames)] : [];
  const request = await x509.Pkcs10CertificateRequestGenerator.create({
    name: distinguishedName(subject),
    keys: pair.keys,
    signingAlgorithm: ALGORITHM,
    extensions,
  });
  return request.toString('pem');
}

/**
 * The subject and names of a PKCS#10 request, parsed but not verified: what validation and
 * admission read synchronously. Throws when it is not a certificate request.
 */
export function parseCertificateRequest(pem: string): { subject: Subject; altNames: string[] } {
  const request = new x509.Pkcs10CertificateRequest(pem);
  const extension = request.getExtension(SUBJECT_ALT_NAME_OID);
  const names = extension ? new x509.SubjectAlternativeNameExtension(extension.rawData).names.items.map((name) => name.value) : [];
  return { subject: subjectOf(request.subjectName), altNames: names };
}

/** Parses and verifies a PKCS#10 request; throws on a bad signature or a key that is not P-256 ECDSA. */
export async function readCertificateRequest(pem: string): Promise<CertificateRequestInfo> {
  const request = new x509.Pkcs10CertificateRequest(pem);
  if (!(await request.verify())) throw new Error('the certificate request is not signed by its own key');
  const publicKey = await request.publicKey.export(ALGORITHM, ['verify']);
  return { ...parseCertificateRequest(pem), publicKey };
}

/** Fraction of the certificate's lifetime (notBefore to notAfter) still ahead: 1 when new, 0 when expired. */
export function lifetimeLeft(certPem: string, now = Date.now()): number {
  const cert = new x509.X509Certificate(certPem);
  const start = cert.notBefore.getTime();
  const end = cert.notAfter.getTime();
  return end <= start ? 0 : Math.min(1, Math.max(0, (end - now) / (end - start)));
}

/** When the certificate stops being valid, and when it started (ms since the epoch). */
export function validity(certPem: string): { notBefore: number; notAfter: number } {
  const cert = new x509.X509Certificate(certPem);
  return { notBefore: cert.notBefore.getTime(), notAfter: cert.notAfter.getTime() };
}

/** CN and O of a certificate, as the API server reads a client's identity. */
export function certificateSubject(certPem: string): Subject {
  return subjectOf(new x509.X509Certificate(certPem).subjectName);
}

function subjectOf(name: x509.Name): Subject {
  const commonName = name.getField('CN')[0] ?? '';
  const organizations = name.getField('O');
  return organizations.length > 0 ? { commonName, organizations } : { commonName };
}

function distinguishedName(subject: Subject): x509.JsonName {
  const name: x509.JsonName = [{ CN: [subject.commonName] }];
  for (const organization of subject.organizations ?? []) name.push({ O: [organization] });
  return name;
}

function altNamesExtension(names: string[]): x509.SubjectAlternativeNameExtension {
  return new x509.SubjectAlternativeNameExtension(names.map((name): x509.JsonGeneralName => ({ type: isIP(name) ? 'ip' : 'dns', value: name })));
}

function serialNumber(): string {
  // Positive (high bit clear) 128-bit serials, as RFC 5280 asks for unpredictable ones.
  const bytes = randomBytes(16);
  bytes[0]! &= 0x7f;
  return bytes.toString('hex');
}

async function keyToPem(key: CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
}
