import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DecryptionError } from './transformer.js';
import { aescbc, aesgcm, identity, KEY_A, KEY_B, transformerOf } from '../../../test/support/storage/encryption-config.js';

const SECRET = '/registry/secrets/default/db';
const JSON_TEXT = '{"kind":"Secret","data":{"password":"aHVudGVyMg=="}}';

function sealed(value: string | Buffer): Buffer {
  assert.ok(Buffer.isBuffer(value), 'the value is sealed');
  return value;
}

describe('value transformer', () => {
  for (const [cipher, provider] of [
    ['aesgcm', aesgcm('key1')],
    ['aescbc', aescbc('key1')],
  ] as const) {
    it(`${cipher}: writes k8s:enc:${cipher}:v1:<key>: + sealed bytes and reads them back`, () => {
      const transformer = transformerOf({ resources: ['secrets'], providers: [provider] });
      const stored = sealed(transformer.toStorage(SECRET, JSON_TEXT));
      const prefix = `k8s:enc:${cipher}:v1:key1:`;
      assert.equal(stored.subarray(0, prefix.length).toString(), prefix);
      assert.ok(!stored.includes('aHVudGVyMg'), 'no plaintext in the stored value');
      // GCM: 12-byte nonce + ciphertext + 16-byte tag; CBC: 16-byte IV + padded blocks.
      const body = stored.length - prefix.length;
      if (cipher === 'aesgcm') assert.equal(body, 12 + JSON_TEXT.length + 16);
      else assert.equal(body, 16 + Math.ceil((JSON_TEXT.length + 1) / 16) * 16);
      assert.deepEqual(transformer.fromStorage(SECRET, stored), { text: JSON_TEXT, stale: false });
      // A fresh nonce / IV each write.
      assert.notDeepEqual(transformer.toStorage(SECRET, JSON_TEXT), stored);
    });
  }

  it('a value fails to open under a key of the same name with other bytes', () => {
    const writer = transformerOf({ resources: ['secrets'], providers: [aesgcm('key1', KEY_A)] });
    const reader = transformerOf({ resources: ['secrets'], providers: [aesgcm('key1', KEY_B)] });
    const stored = writer.toStorage(SECRET, JSON_TEXT);
    assert.throws(
      () => reader.fromStorage(SECRET, stored),
      (error: unknown) => {
        assert.ok(error instanceof DecryptionError);
        assert.match(error.message, /^cannot decrypt \/registry\/secrets\/default\/db \(resource secrets\): key key1 \(aesgcm\)/);
        return true;
      },
    );
    const cbc = transformerOf({ resources: ['secrets'], providers: [aescbc('key1', KEY_A)] }).toStorage(SECRET, JSON_TEXT);
    assert.throws(() => transformerOf({ resources: ['secrets'], providers: [aescbc('key1', KEY_B)] }).fromStorage(SECRET, cbc), DecryptionError);
  });

  it('aesgcm binds the value to its key path: copied under another name it does not open', () => {
    const transformer = transformerOf({ resources: ['secrets'], providers: [aesgcm('key1')] });
    const stored = transformer.toStorage(SECRET, JSON_TEXT);
    assert.throws(
      () => transformer.fromStorage('/registry/secrets/default/other', stored),
      /cannot decrypt \/registry\/secrets\/default\/other.*copied from another key path/,
    );
  });

  it('a prefix naming a key no provider has is an error that names the prefix', () => {
    const old = transformerOf({ resources: ['secrets'], providers: [aesgcm('gone')] }).toStorage(SECRET, JSON_TEXT);
    const now = transformerOf({ resources: ['secrets'], providers: [aesgcm('key1'), identity] });
    assert.throws(() => now.fromStorage(SECRET, old), /no provider of the resource has the key its prefix k8s:enc:aesgcm:v1:gone: names/);
  });

  it("any key of any provider of the resource reads; all but the first provider's first key are stale", () => {
    const before = transformerOf({ resources: ['secrets'], providers: [aesgcm('new'), aescbc('old')] });
    const after = transformerOf({ resources: ['secrets'], providers: [aescbc('old'), aesgcm('new')] });
    const gcmValue = before.toStorage(SECRET, JSON_TEXT);
    assert.deepEqual(after.fromStorage(SECRET, gcmValue), { text: JSON_TEXT, stale: true });
    const cbcValue = sealed(after.toStorage(SECRET, JSON_TEXT));
    assert.match(cbcValue.subarray(0, 24).toString(), /^k8s:enc:aescbc:v1:old:/);
    assert.deepEqual(after.fromStorage(SECRET, cbcValue), { text: JSON_TEXT, stale: false });
    // Two keys of one provider: the second reads, stale.
    const twoKeys = transformerOf({
      resources: ['secrets'],
      providers: [
        {
          aesgcm: {
            keys: [
              { name: 'b', secret: KEY_B },
              { name: 'new', secret: KEY_A },
            ],
          },
        },
      ],
    });
    assert.deepEqual(twoKeys.fromStorage(SECRET, gcmValue), { text: JSON_TEXT, stale: true });
  });

  it('plaintext is read by identity where it is listed (stale unless identity writes), else it is an error', () => {
    const migrating = transformerOf({ resources: ['secrets'], providers: [aesgcm('key1'), identity] });
    assert.deepEqual(migrating.fromStorage(SECRET, JSON_TEXT), { text: JSON_TEXT, stale: true });
    assert.deepEqual(migrating.fromStorage(SECRET, Buffer.from(JSON_TEXT)), { text: JSON_TEXT, stale: true });
    const decrypting = transformerOf({ resources: ['secrets'], providers: [identity, aesgcm('key1')] });
    assert.equal(decrypting.toStorage(SECRET, JSON_TEXT), JSON_TEXT, 'identity first stores plaintext');
    assert.deepEqual(decrypting.fromStorage(SECRET, JSON_TEXT), { text: JSON_TEXT, stale: false });
    assert.deepEqual(decrypting.fromStorage(SECRET, migrating.toStorage(SECRET, JSON_TEXT)), { text: JSON_TEXT, stale: true });
    const strict = transformerOf({ resources: ['secrets'], providers: [aesgcm('key1')] });
    assert.throws(
      () => strict.fromStorage(SECRET, JSON_TEXT),
      /resource secrets\): the value is not encrypted and identity is not among the resource's providers/,
    );
  });

  it('matches resources as Kubernetes does: names, group wildcards, *. and *.*, first rule first', () => {
    const transformer = transformerOf(
      { resources: ['events'], providers: [identity] },
      { resources: ['secrets', 'pytorchjobs.kubeflow.org'], providers: [aesgcm('key1')] },
      { resources: ['*.apps'], providers: [aescbc('apps')] },
    );
    assert.ok(transformer.covers(SECRET));
    assert.ok(transformer.covers('/registry/pytorchjobs.kubeflow.org/ns/job'));
    assert.ok(transformer.covers('/registry/deployments.apps/ns/web'));
    assert.ok(!transformer.covers('/registry/configmaps/ns/c'));
    assert.ok(!transformer.covers('/registry/jobs.batch/ns/j'));
    assert.equal(transformer.toStorage('/registry/configmaps/ns/c', JSON_TEXT), JSON_TEXT);
    assert.equal(transformer.toStorage('/registry/events/ns/e', JSON_TEXT), JSON_TEXT);
    assert.match(sealed(transformer.toStorage('/registry/deployments.apps/ns/web', JSON_TEXT)).toString('latin1'), /^k8s:enc:aescbc:v1:apps:/);
    const core = transformerOf({ resources: ['*.'], providers: [aesgcm('core')] });
    assert.ok(core.covers('/registry/configmaps/ns/c') && !core.covers('/registry/deployments.apps/ns/web'));
    const all = transformerOf({ resources: ['*.*'], providers: [aesgcm('all')] });
    assert.ok(all.covers('/registry/configmaps/ns/c') && all.covers('/registry/deployments.apps/ns/web'));
  });

  it('a sealed value of a resource no rule names any longer is an error, not garbage', () => {
    const stored = transformerOf({ resources: ['secrets'], providers: [aesgcm('key1')] }).toStorage(SECRET, JSON_TEXT);
    const none = transformerOf({ resources: ['configmaps'], providers: [aesgcm('key1')] });
    assert.throws(() => none.fromStorage(SECRET, stored), /encrypted but no rule of the encryption config names its resource/);
  });
});
