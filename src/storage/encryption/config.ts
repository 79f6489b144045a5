// Reads Kubernetes' EncryptionConfiguration (apiserver.config.k8s.io/v1), YAML or JSON, the file
// kube-apiserver takes as --encryption-provider-config. Anything wrong in it stops the server
// from starting: a server that silently stored Secrets in the clear, or with a key the operator
// did not mean, would be worse than one that does not start.
import { readFileSync, statSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { AES_KEY_LENGTHS, keyedCipher, type CipherName, type KeyedCipher } from './ciphers.js';

/** One provider of a resource list: keys of one cipher in the file's order, or identity (none). */
export type Provider = { kind: 'identity' } | { kind: CipherName; keys: KeyedCipher[] };

/** One entry of `resources`: which resources it names, and their providers, first one writing. */
export interface ResourceRule {
  /** As written: `secrets`, `deployments.apps`, `*.apps`, `*.` (the core group), `*.*`. */
  resources: string[];
  providers: Provider[];
}

export class EncryptionConfigError extends Error {
  constructor(path: string, detail: string) {
    super(`encryption provider config ${path}: ${detail}`);
    this.name = 'EncryptionConfigError';
  }
}

const API_VERSION = 'apiserver.config.k8s.io/v1';
const KIND = 'EncryptionConfiguration';
const PROVIDER_KINDS = ['aesgcm', 'aescbc', 'secretbox', 'kms', 'identity'] as const;

/**
 * Reads and checks the file. `warn` hears about a file others may read: it holds the keys to
 * every Secret, as kube-apiserver's docs ask it to be the owner's only.
 */
export function loadEncryptionConfig(path: string, warn: (message: string) => void = defaultWarn): ResourceRule[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) !== 0)
      warn(`encryption provider config ${path} is mode ${mode.toString(8).padStart(4, '0')}: it holds the encryption keys, make it 0600 (chmod 600 ${path})`);
  } catch (error) {
    throw new EncryptionConfigError(path, `cannot be read: ${(error as Error).message}`);
  }
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw new EncryptionConfigError(path, `is neither YAML nor JSON: ${(error as Error).message}`);
  }
  return parseEncryptionConfig(document, path);
}

export function parseEncryptionConfig(document: unknown, path = '<config>'): ResourceRule[] {
  const fail = (detail: string): never => {
    throw new EncryptionConfigError(path, detail);
  };
  if (!isRecord(document)) return fail('must be an object of kind EncryptionConfiguration');
  if (document['apiVersion'] !== API_VERSION) fail(`apiVersion must be ${API_VERSION}, got ${JSON.stringify(document['apiVersion'])}`);
  if (document['kind'] !== KIND) fail(`kind must be ${KIND}, got ${JSON.stringify(document['kind'])}`);
  const entries = document['resources'];
  if (!Array.isArray(entries) || entries.length === 0) fail('resources must be a non-empty list');
  const rules = (entries as unknown[]).map((entry, i) => parseRule(entry, `resources[${i}]`, fail));
  checkOverlaps(rules, fail);
  return rules;
}

function parseRule(entry: unknown, at: string, fail: (detail: string) => never): ResourceRule {
  if (!isRecord(entry)) fail(`${at} must be an object with resources and providers`);
  const record = entry as Record<string, unknown>;
  const resources = record['resources'];
  if (!Array.isArray(resources) || resources.length === 0) fail(`${at}.resources must be a non-empty list`);
  for (const [j, name] of (resources as unknown[]).entries()) {
    if (typeof name !== 'string' || !validResource(name)) {
      fail(`${at}.resources[${j}] ${JSON.stringify(name)} is not a resource (e.g. secrets, deployments.apps, *.apps, *., *.*)`);
    }
  }
  const providers = record['providers'];
  if (!Array.isArray(providers) || providers.length === 0) fail(`${at}.providers must be a non-empty list`);
  return {
    resources: (resources as string[]).map((name) => name.toLowerCase()),
    providers: (providers as unknown[]).map((provider, j) => parseProvider(provider, `${at}.providers[${j}]`, fail)),
  };
}

function parseProvider(provider: unknown, at: string, fail: (detail: string) => never): Provider {
  if (!isRecord(provider)) return fail(`${at} must be an object naming one provider`);
  const kinds = Object.keys(provider);
  if (kinds.length !== 1) fail(`${at} must name exactly one provider (${PROVIDER_KINDS.join(', ')}), got ${kinds.join(', ') || 'none'}`);
  const kind = kinds[0]!;
  switch (kind) {
    case 'identity':
      return { kind: 'identity' };
    case 'aesgcm':
    case 'aescbc':
      return { kind, keys: parseKeys(kind, provider[kind], `${at}.${kind}`, fail) };
    case 'secretbox':
      // XSalsa20-Poly1305 is not in node:crypto (OpenSSL has no XSalsa20); a hand-made cipher
      // would be the wrong place to save a dependency.
      return fail(`${at}: secretbox is not supported by Drover (node:crypto has no XSalsa20-Poly1305); use aesgcm or aescbc`);
    case 'kms':
      return fail(`${at}: kms is not supported by Drover (it needs a KMS plugin); use aesgcm or aescbc`);
    default:
      return fail(`${at}: unknown provider ${JSON.stringify(kind)} (known: ${PROVIDER_KINDS.join(', ')})`);
  }
}

function parseKeys(cipher: CipherName, config: unknown, at: string, fail: (detail: string) => never): KeyedCipher[] {
  const keys = isRecord(config) ? config['keys'] : undefined;
  if (!Array.isArray(keys) || keys.length === 0) fail(`${at}.keys must be a non-empty list of {name, secret}`);
  const names = new Set<string>();
  return (keys as unknown[]).map((key, i) => {
    const where = `${at}.keys[${i}]`;
    if (!isRecord(key)) fail(`${where} must be an object with name and secret`);
    const { name, secret } = key as Record<string, unknown>;
    if (typeof name !== 'string' || name === '') fail(`${where}.name must be a non-empty string`);
    // The name goes into every stored value's prefix, which ends at the next ':'.
    if ((name as string).includes(':')) fail(`${where}.name ${JSON.stringify(name)} must not contain ':'`);
    if (names.has(name as string)) fail(`${where}.name ${JSON.stringify(name)} is used twice in ${at}`);
    names.add(name as string);
    if (typeof secret !== 'string' || secret === '') fail(`${where}.secret (key ${name}) must be a base64 string`);
    const bytes = decodeBase64(secret as string);
    if (bytes === undefined) fail(`${where}.secret (key ${name}) is not valid base64`);
    if (!AES_KEY_LENGTHS.includes(bytes!.length)) {
      fail(`${where}.secret (key ${name}) is ${bytes!.length} bytes; ${cipher} needs 16, 24 or 32 (e.g. head -c 32 /dev/urandom | base64)`);
    }
    return keyedCipher(cipher, name as string, bytes!);
  });
}

/** Strict base64: node's decoder skips what it does not know, which would hide a typo in a key. */
function decodeBase64(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(trimmed) || trimmed.length % 4 !== 0) return undefined;
  return Buffer.from(trimmed, 'base64');
}

function validResource(name: string): boolean {
  if (name === '*.*' || name === '*.') return true;
  if (name.startsWith('*.')) return /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/i.test(name.slice(2));
  // A plural, optionally with its group: no other wildcard form ('*', 'secrets.*') exists.
  return /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9.]*[a-z0-9])?)?$/i.test(name);
}

/**
 * Kubernetes refuses a name listed twice, or one an earlier wildcard already covers: that part of
 * the file would have no effect, and an operator who wrote it meant something else.
 */
function checkOverlaps(rules: ResourceRule[], fail: (detail: string) => never): void {
  const seen: string[] = [];
  for (const rule of rules) {
    for (const name of rule.resources) {
      if (seen.includes(name)) fail(`resource ${JSON.stringify(name)} is listed twice`);
      const masking = seen.find((earlier) => masks(earlier, name));
      if (masking !== undefined) fail(`resource ${JSON.stringify(name)} is masked by the earlier wildcard ${JSON.stringify(masking)}`);
      seen.push(name);
    }
  }
}

function masks(wildcard: string, name: string): boolean {
  if (wildcard === '*.*') return true;
  if (!wildcard.startsWith('*.')) return false;
  const { group } = splitResource(name);
  // `*.` is the core group; a group wildcard masks the group's names and nothing else.
  return wildcard === '*.' ? group === '' && !name.startsWith('*') : group === wildcard.slice(2);
}

/** `deployments.apps` → plural and group; plurals hold no dots, groups may (kubeflow.org). */
export function splitResource(name: string): { plural: string; group: string } {
  const dot = name.indexOf('.');
  return dot < 0 ? { plural: name, group: '' } : { plural: name.slice(0, dot), group: name.slice(dot + 1) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function defaultWarn(message: string): void {
  process.emitWarning(message, 'DroverSecurityWarning');
}
