// The ciphers of Kubernetes' EncryptionConfiguration, byte for byte in Kubernetes' layout, so an
// etcd value written by Drover reads as kube-apiserver's would (and the other way round):
//
//   k8s:enc:aesgcm:v1:<key name>:<12-byte nonce><ciphertext><16-byte tag>   AAD = the storage key
//   k8s:enc:aescbc:v1:<key name>:<16-byte IV><ciphertext, PKCS#7 padded>
//
// AES-GCM binds the value to its key path (the AAD), so a value copied under another name fails
// to open. CBC has no authentication to bind with; Kubernetes' aescbc has none either, which is
// why its docs call aesgcm and KMS the stronger choices.
// A random 96-bit GCM nonce is safe for about 2^32 writes per key: rotate keys long before that
// (Kubernetes gives the same advice).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export type CipherName = 'aesgcm' | 'aescbc';

/** One named key of one cipher: what a stored value's prefix names. */
export interface KeyedCipher {
  readonly cipher: CipherName;
  readonly keyName: string;
  /** `k8s:enc:<cipher>:v1:<keyName>:` as bytes. */
  readonly prefix: Buffer;
  seal(plaintext: Buffer, aad: string): Buffer;
  /** Throws when the key is not the one the value was sealed with, or the value was tampered with. */
  open(sealed: Buffer, aad: string): Buffer;
}

/** AES-128/192/256, as Kubernetes accepts for both ciphers. */
export const AES_KEY_LENGTHS: readonly number[] = [16, 24, 32];

const GCM_NONCE = 12;
const GCM_TAG = 16;
const CBC_IV = 16;

export function keyedCipher(cipher: CipherName, keyName: string, secret: Buffer): KeyedCipher {
  const prefix = Buffer.from(`k8s:enc:${cipher}:v1:${keyName}:`, 'utf8');
  const algorithm = `aes-${secret.length * 8}-${cipher === 'aesgcm' ? 'gcm' : 'cbc'}` as const;
  if (cipher === 'aesgcm') {
    return {
      cipher,
      keyName,
      prefix,
      seal(plaintext, aad) {
        const nonce = randomBytes(GCM_NONCE);
        const gcm = createCipheriv(algorithm as 'aes-256-gcm', secret, nonce, { authTagLength: GCM_TAG });
        gcm.setAAD(Buffer.from(aad, 'utf8'));
        return Buffer.concat([prefix, nonce, gcm.update(plaintext), gcm.final(), gcm.getAuthTag()]);
      },
      open(sealed, aad) {
        const body = sealed.subarray(prefix.length);
        if (body.length < GCM_NONCE + GCM_TAG) throw new Error('the value is too short for AES-GCM');
        const gcm = createDecipheriv(algorithm as 'aes-256-gcm', secret, body.subarray(0, GCM_NONCE), { authTagLength: GCM_TAG });
        gcm.setAAD(Buffer.from(aad, 'utf8'));
        gcm.setAuthTag(body.subarray(body.length - GCM_TAG));
        return Buffer.concat([gcm.update(body.subarray(GCM_NONCE, body.length - GCM_TAG)), gcm.final()]);
      },
    };
  }
  return {
    cipher,
    keyName,
    prefix,
    seal(plaintext) {
      const iv = randomBytes(CBC_IV);
      // node's default padding is PKCS#7, as Kubernetes' aescbc pads.
      const cbc = createCipheriv(algorithm, secret, iv);
      return Buffer.concat([prefix, iv, cbc.update(plaintext), cbc.final()]);
    },
    open(sealed) {
      const body = sealed.subarray(prefix.length);
      if (body.length < 2 * CBC_IV || body.length % CBC_IV !== 0) throw new Error('the value is not whole AES-CBC blocks');
      const cbc = createDecipheriv(algorithm, secret, body.subarray(0, CBC_IV));
      return Buffer.concat([cbc.update(body.subarray(CBC_IV)), cbc.final()]);
    },
  };
}
