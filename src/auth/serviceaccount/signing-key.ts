// The key service-account tokens are signed with (kube-apiserver's --service-account-key-file
// and --service-account-signing-key-file): an ECDSA P-256 pair made on first start in
// `<data-dir>/tls/service-account.{key,pub}` (0600) and kept, so tokens outlive restarts. Servers
// that share a store share one key, kept sealed in the store beside the CA (pki/shared-ca.ts).
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { KeyMaterial, SharedMaker } from '../pki/shared-ca.js';
import { algorithmOf } from './jwt.js';

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export function makeSigningKey(): KeyMaterial {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return { privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, publicPem: publicKey.export({ type: 'spki', format: 'pem' }) as string };
}

export function signingKeyOf(material: KeyMaterial): SigningKey {
  const privateKey = createPrivateKey(material.privatePem);
  algorithmOf(privateKey); // refuses a key JWS cannot use here
  return { privateKey, publicKey: createPublicKey(material.publicPem) };
}

/** The key in `tlsDir`, else the store's (shared), else a new one; written to `tlsDir` either way. */
export async function loadSigningKey(tlsDir: string, shared?: SharedMaker<KeyMaterial>): Promise<SigningKey> {
  const keyPath = join(tlsDir, 'service-account.key');
  const pubPath = join(tlsDir, 'service-account.pub');
  if (shared) {
    const material = await shared(async () => makeSigningKey());
    await write(keyPath, pubPath, material);
    return signingKeyOf(material);
  }
  try {
    return signingKeyOf({ privatePem: await readFile(keyPath, 'utf8'), publicPem: await readFile(pubPath, 'utf8') });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const material = makeSigningKey();
  await write(keyPath, pubPath, material);
  return signingKeyOf(material);
}

async function write(keyPath: string, pubPath: string, material: KeyMaterial): Promise<void> {
  await writeFile(keyPath, material.privatePem, { mode: 0o600 });
  await writeFile(pubPath, material.publicPem, { mode: 0o600 });
}
