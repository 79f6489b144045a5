// For tests: EncryptionConfiguration documents with fixed keys.
import { parseEncryptionConfig, type ResourceRule } from '../../../src/storage/encryption/config.js';
import { ValueTransformer } from '../../../src/storage/encryption/transformer.js';

export const KEY_A = Buffer.alloc(32, 0xa1).toString('base64');
export const KEY_B = Buffer.alloc(32, 0xb2).toString('base64');
export const KEY_16 = Buffer.alloc(16, 0xc3).toString('base64');

export type ProviderDoc = Record<string, unknown>;

export const aesgcm = (name: string, secret = KEY_A): ProviderDoc => ({ aesgcm: { keys: [{ name, secret }] } });
export const aescbc = (name: string, secret = KEY_B): ProviderDoc => ({ aescbc: { keys: [{ name, secret }] } });
export const identity: ProviderDoc = { identity: {} };

export function configDoc(...rules: Array<{ resources: string[]; providers: ProviderDoc[] }>): Record<string, unknown> {
  return { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'EncryptionConfiguration', resources: rules };
}

export function transformerOf(...rules: Array<{ resources: string[]; providers: ProviderDoc[] }>): ValueTransformer {
  return new ValueTransformer(parseEncryptionConfig(configDoc(...rules)));
}

export function rulesOf(...rules: Array<{ resources: string[]; providers: ProviderDoc[] }>): ResourceRule[] {
  return parseEncryptionConfig(configDoc(...rules));
}
