// Key material of servers that share a store (etcd): the cluster CA and the service-account
// signing key, each kept in the store under a key no API path reaches, its private half sealed
// with AES-256-GCM under a key derived from the servers' token secret (as k3s keeps its
// bootstrap data), so each server trusts and signs with the same keys, and reading the store
// alone does not yield them. The first server makes them; the others, started with the same
// --token, read them.
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import type { KubeObject } from '../../api/meta.js';
import { KeyExistsError } from '../../storage/errors.js';
import type { Store } from '../../storage/store.js';
import type { IssuedCertificate } from './certificates.js';

/** A public half (certificate or public key, PEM) kept in the clear, and a private key (PEM) kept sealed. */
export interface KeyMaterial {
  publicPem: string;
  privatePem: string;
}

/** Where one piece of key material lives in the store, and what it is called there. */
interface Slot {
  key: string;
  kind: string;
  name: string;
  /** The data field holding the public half. */
  publicField: string;
  /** For the error when the seal does not open. */
  what: string;
}

const CA_SLOT: Slot = {
  key: '/drover/bootstrap/cluster-ca',
  kind: 'ClusterCertificateAuthority',
  name: 'cluster-ca',
  publicField: 'certificate',
  what: 'cluster CA',
};
const SERVICE_ACCOUNT_SLOT: Slot = {
  key: '/drover/bootstrap/service-account-key',
  kind: 'ServiceAccountSigningKey',
  name: 'service-account-key',
  publicField: 'publicKey',
  what: 'service-account signing key',
};

export type SharedMaker<T> = (make: () => Promise<T>) => Promise<T>;

export function sharedCaIn(store: Store, secret: string): SharedMaker<IssuedCertificate> {
  const shared = sharedIn(store, secret, CA_SLOT);
  return async (make) => {
    const pair = await shared(async () => {
      const ca = await make();
      return { publicPem: ca.certPem, privatePem: ca.keyPem };
    });
    return { certPem: pair.publicPem, keyPem: pair.privatePem };
  };
}

export function sharedServiceAccountKeyIn(store: Store, secret: string): SharedMaker<KeyMaterial> {
  return sharedIn(store, secret, SERVICE_ACCOUNT_SLOT);
}

function sharedIn(store: Store, secret: string, slot: Slot): SharedMaker<KeyMaterial> {
  return async (make) => {
    const existing = await store.get(slot.key);
    if (existing) return open(existing, secret, slot);
    const made = await make();
    try {
      await store.create(slot.key, seal(made, secret, slot));
      return made;
    } catch (error) {
      // Another server made it first: use theirs.
      if (!(error instanceof KeyExistsError)) throw error;
      return open((await store.get(slot.key))!, secret, slot);
    }
  };
}

function seal(material: KeyMaterial, secret: string, slot: Slot): KubeObject {
  const salt = randomBytes(16);
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', scryptSync(secret, salt, 32), nonce);
  const sealed = Buffer.concat([cipher.update(material.privatePem, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return {
    apiVersion: 'drover.dev/v1',
    kind: slot.kind,
    metadata: { name: slot.name },
    data: { [slot.publicField]: material.publicPem, salt: salt.toString('base64'), nonce: nonce.toString('base64'), sealedKey: sealed.toString('base64') },
  } as KubeObject;
}

function open(object: KubeObject, secret: string, slot: Slot): KeyMaterial {
  const data = object['data'] as Record<string, string>;
  const sealed = Buffer.from(data['sealedKey']!, 'base64');
  try {
    const decipher = createDecipheriv('aes-256-gcm', scryptSync(secret, Buffer.from(data['salt']!, 'base64'), 32), Buffer.from(data['nonce']!, 'base64'));
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    const privatePem = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]).toString('utf8');
    return { publicPem: data[slot.publicField]!, privatePem };
  } catch {
    throw new Error(`the ${slot.what} in the store is sealed with another token: start this server with the --token of the others`);
  }
}
