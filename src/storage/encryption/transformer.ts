// What both stores call to turn an object's JSON into the value they store and back: Kubernetes'
// value transformer, chosen per resource from the store key (/registry/<plural>[.<group>]/...).
// A resource no rule names is stored as is and never reaches a cipher.
//
// Writing uses the resource's first provider (its first key). Reading follows the value's prefix,
// so any key of any provider of the resource opens it; a value without a prefix is plaintext,
// read only where identity is one of the providers. A value read with anything but the first
// provider's first key is `stale`: rewriting it moves it to the current key (key rotation).
import { StoreError } from '../errors.js';
import type { KeyedCipher } from './ciphers.js';
import { splitResource, type Provider, type ResourceRule } from './config.js';

/** The stored value could not be read back: the API answers 500, as kube-apiserver does. */
export class DecryptionError extends StoreError {
  constructor(key: string, resource: string, detail: string) {
    super(`cannot decrypt ${key} (resource ${resource}): ${detail}`, key);
  }
}

const ENCRYPTED = Buffer.from('k8s:enc:', 'utf8');

export interface ReadValue {
  /** The object's JSON. */
  text: string;
  /** Not written with the first provider's first key: a rewrite would store it differently. */
  stale: boolean;
}

interface ResourcePlan {
  resource: string;
  /** Undefined: the first provider is identity, so writes are stored as they are. */
  writer: KeyedCipher | undefined;
  /** Every key of the resource, in the file's order (which is also the staleness order). */
  readers: KeyedCipher[];
  identity: boolean;
}

export class ValueTransformer {
  /** Resource segment of a key → its plan, or null when no rule names it. */
  private readonly plans = new Map<string, ResourcePlan | null>();

  constructor(private readonly rules: readonly ResourceRule[]) {}

  /**
   * The key segments (`secrets`, `deployments.apps`) of every resource the config names, when it
   * names them all explicitly; undefined when a wildcard makes that an open set.
   */
  namedSegments(): string[] | undefined {
    const names = this.rules.flatMap((rule) => rule.resources);
    return names.some((name) => name.startsWith('*.')) ? undefined : names;
  }

  /** Whether values under this key go through a provider at all. */
  covers(key: string): boolean {
    return this.planFor(key) !== undefined;
  }

  /**
   * The value to store for `json` under `key`: sealed bytes, or the text itself where the first
   * provider is identity or no rule names the resource. `aad` is the key the value is bound to
   * (the full etcd key, as kube-apiserver binds it).
   */
  toStorage(key: string, json: string, aad = key): string | Buffer {
    const writer = this.planFor(key)?.writer;
    return writer === undefined ? json : writer.seal(Buffer.from(json, 'utf8'), aad);
  }

  /** The JSON a stored value holds; throws DecryptionError (naming key and resource) when it cannot be read. */
  fromStorage(key: string, stored: string | Uint8Array, aad = key): ReadValue {
    const plan = this.planFor(key);
    const bytes = typeof stored === 'string' ? undefined : Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
    if (plan === undefined) {
      if (bytes === undefined) return { text: stored as string, stale: false };
      // As kube-apiserver's identity reader: a resource taken out of the file stays sealed.
      if (startsWith(bytes, ENCRYPTED))
        throw new DecryptionError(key, resourceSegment(key) ?? key, 'the value is encrypted but no rule of the encryption config names its resource');
      return { text: bytes.toString('utf8'), stale: false };
    }
    if (bytes !== undefined && startsWith(bytes, ENCRYPTED)) return this.open(plan, key, bytes, aad);
    if (!plan.identity) {
      throw new DecryptionError(
        key,
        plan.resource,
        "the value is not encrypted and identity is not among the resource's providers (add identity: {} to read values written before encryption was turned on)",
      );
    }
    return { text: bytes === undefined ? (stored as string) : bytes.toString('utf8'), stale: plan.writer !== undefined };
  }

  private open(plan: ResourcePlan, key: string, bytes: Buffer, aad: string): ReadValue {
    const failures: string[] = [];
    for (const [i, reader] of plan.readers.entries()) {
      if (!startsWith(bytes, reader.prefix)) continue;
      try {
        const plain = reader.open(bytes, aad);
        // CBC has no authentication: a wrong key passes its padding check once in 256 tries.
        if (plain[0] !== 0x7b) throw new Error('the decrypted value is not a JSON object');
        return { text: plain.toString('utf8'), stale: i !== 0 || plan.writer !== reader };
      } catch (error) {
        failures.push(`key ${reader.keyName} (${reader.cipher}): ${(error as Error).message}`);
      }
    }
    const prefix = bytes.subarray(0, prefixLength(bytes)).toString('utf8');
    if (failures.length === 0) throw new DecryptionError(key, plan.resource, `no provider of the resource has the key its prefix ${prefix} names`);
    throw new DecryptionError(key, plan.resource, `${failures.join('; ')} (the value was written under another key or copied from another key path)`);
  }

  private planFor(key: string): ResourcePlan | undefined {
    const segment = resourceSegment(key);
    if (segment === undefined) return undefined;
    let plan = this.plans.get(segment);
    if (plan === undefined) {
      plan = this.makePlan(segment);
      this.plans.set(segment, plan);
    }
    return plan ?? undefined;
  }

  private makePlan(segment: string): ResourcePlan | null {
    const { group } = splitResource(segment);
    // Rules in the file's order; the first that names the resource wins.
    const rule = this.rules.find((candidate) =>
      candidate.resources.some((name) => name === segment || name === '*.*' || (name === '*.' ? group === '' : name === `*.${group}` && group !== '')),
    );
    if (rule === undefined) return null;
    const readers = rule.providers.flatMap((provider) => (provider.kind === 'identity' ? [] : provider.keys));
    const first: Provider = rule.providers[0]!;
    return {
      resource: segment,
      writer: first.kind === 'identity' ? undefined : first.keys[0],
      readers,
      identity: rule.providers.some((provider) => provider.kind === 'identity'),
    };
  }
}

/** `/registry/secrets/ns/name` → `secrets`; `/registry/deployments.apps/...` → `deployments.apps`. */
function resourceSegment(key: string): string | undefined {
  if (!key.startsWith('/registry/')) return undefined;
  const end = key.indexOf('/', 10);
  return end < 0 ? undefined : key.slice(10, end);
}

function startsWith(bytes: Buffer, prefix: Buffer): boolean {
  return bytes.length >= prefix.length && bytes.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;
}

/** `k8s:enc:<cipher>:v1:<name>:` is five colons long. */
function prefixLength(bytes: Buffer): number {
  let at = -1;
  for (let colons = 0; colons < 5; colons++) {
    at = bytes.indexOf(0x3a, at + 1);
    if (at < 0) return Math.min(bytes.length, 40);
  }
  return at + 1;
}
