// The cluster CA of servers that share a store (etcd): kept in the store under a key no API
// path reaches, its private key sealed with AES-256-GCM under a key derived from the servers'
// token secret (as k3s keeps its bootstrap data), so each server trusts and signs with the same
// CA, and reading the store alone does not yield it. The first server makes it; the others,
// started with the same --token, read it.
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import type { KubeObject } from '../../api/meta.js';
import { KeyExistsError } from '../../storage/errors.js';
import type { Store } from '../../storage/store.js';
import type { IssuedCertificate } from './certificates.js';

const KEY = '/drover/bootstrap/cluster-ca';

export function sharedCaIn(store: Store, secret: string): (make: () => Promise<IssuedCertificate>) => Promise<IssuedCertificate> {
  return async (make) => {
    const existing = await store.get(KEY);
    if (existing) return open(existing, secret);
    const made = await make();
    try {
      await store.create(KEY, seal(made, secret));
      return made;
    } catch (error) {
      // Another server made it first: use theirs.
      if (!(error instanceof KeyExistsError)) throw error;
      return open((await store.get(KEY))!, secret);
    }
  };
}

function seal(ca: IssuedCertificate, secret: string): KubeObject {
  const salt = randomBytes(16);
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', scryptSync(secret, salt, 32), nonce);
  const sealed = Buffer.concat([cipher.update(ca.keyPem, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return {
    apiVersion: 'drover.dev/v1', kind: 'ClusterCertificateAuthority', metadata: { name: 'cluster-ca' },
    data: { certificate: ca.certPem, salt: salt.toString('base64'), nonce: nonce.toString('base64'), sealedKey: sealed.toString('base64') },
  } as KubeObject;
}

function open(object: KubeObject, secret: string): IssuedCertificate {
  const data = object['data'] as Record<string, string>;
  const sealed = Buffer.from(data['sealedKey']!, 'base64');
  try {
    const decipher = createDecipheriv('aes-256-gcm', scryptSync(secret, Buffer.from(data['salt']!, 'base64'), 32), Buffer.from(data['nonce']!, 'base64'));
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    const keyPem = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]).toString('utf8');
    return { certPem: data['certificate']!, keyPem };
  } catch {
    throw new Error('the cluster CA in the store is sealed with another token: start this server with the --token of the others');
  }
}
