import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { EncryptionConfigError, loadEncryptionConfig, parseEncryptionConfig } from './config.js';
import { aescbc, aesgcm, configDoc, identity, KEY_16, KEY_A } from '../../../test/support/storage/encryption-config.js';

const dir = mkdtempSync(join(tmpdir(), 'drover-encrypt-config-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string, mode = 0o600): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

const YAML = `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources:
      - events
    providers:
      - identity: {}
  - resources:
      - secrets
      - configmaps
    providers:
      - aesgcm:
          keys:
            - name: key1
              secret: ${KEY_A}
            - name: key0
              secret: ${KEY_16}
      - aescbc:
          keys:
            - name: old
              secret: ${KEY_A}
      - identity: {}
  - resources:
      - '*.apps'
    providers:
      - aescbc:
          keys:
            - name: apps
              secret: ${KEY_A}
`;

describe('encryption config', () => {
  it("reads Kubernetes' YAML example: rules in order, providers and keys in order", () => {
    const rules = loadEncryptionConfig(file('ok.yaml', YAML), () => assert.fail('an 0600 file is not warned about'));
    assert.deepEqual(
      rules.map((rule) => rule.resources),
      [['events'], ['secrets', 'configmaps'], ['*.apps']],
    );
    const providers = rules[1]!.providers;
    assert.deepEqual(
      providers.map((provider) => provider.kind),
      ['aesgcm', 'aescbc', 'identity'],
    );
    const gcm = providers[0]!;
    assert.ok(gcm.kind === 'aesgcm');
    assert.deepEqual(
      gcm.keys.map((key) => key.keyName),
      ['key1', 'key0'],
    );
    assert.equal(gcm.keys[0]!.prefix.toString(), 'k8s:enc:aesgcm:v1:key1:');
  });

  it('reads the same document as JSON', () => {
    const json = JSON.stringify(configDoc({ resources: ['secrets'], providers: [aesgcm('k'), identity] }));
    const rules = loadEncryptionConfig(file('ok.json', json));
    assert.deepEqual(
      rules[0]!.providers.map((provider) => provider.kind),
      ['aesgcm', 'identity'],
    );
  });

  it('warns about a file others may read', () => {
    const warnings: string[] = [];
    loadEncryptionConfig(file('open.yaml', YAML, 0o644), (message) => warnings.push(message));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /mode 0644.*make it 0600/);
  });

  const refusals: Array<[string, unknown, RegExp]> = [
    [
      'bad base64',
      configDoc({ resources: ['secrets'], providers: [{ aesgcm: { keys: [{ name: 'k', secret: 'not base64!' }] } }] }),
      /keys\[0\]\.secret \(key k\) is not valid base64/,
    ],
    [
      'a key of the wrong length',
      configDoc({ resources: ['secrets'], providers: [{ aescbc: { keys: [{ name: 'k', secret: Buffer.alloc(20).toString('base64') }] } }] }),
      /is 20 bytes; aescbc needs 16, 24 or 32/,
    ],
    ['an unknown provider', configDoc({ resources: ['secrets'], providers: [{ rot13: {} }] }), /unknown provider "rot13"/],
    [
      'secretbox',
      configDoc({ resources: ['secrets'], providers: [{ secretbox: { keys: [{ name: 'k', secret: KEY_A }] } }] }),
      /secretbox is not supported by Drover \(node:crypto has no XSalsa20-Poly1305\)/,
    ],
    ['kms', configDoc({ resources: ['secrets'], providers: [{ kms: { name: 'x' } }] }), /kms is not supported/],
    ['two providers in one entry', configDoc({ resources: ['secrets'], providers: [{ identity: {}, aesgcm: {} }] }), /exactly one provider/],
    ['no keys', configDoc({ resources: ['secrets'], providers: [{ aesgcm: { keys: [] } }] }), /keys must be a non-empty list/],
    [
      'a key name used twice',
      configDoc({
        resources: ['secrets'],
        providers: [
          {
            aesgcm: {
              keys: [
                { name: 'k', secret: KEY_A },
                { name: 'k', secret: KEY_A },
              ],
            },
          },
        ],
      }),
      /used twice/,
    ],
    ['the wrong kind', { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'Secret', resources: [] }, /kind must be EncryptionConfiguration/],
    ['the wrong apiVersion', { apiVersion: 'v1', kind: 'EncryptionConfiguration', resources: [] }, /apiVersion must be apiserver.config.k8s.io\/v1/],
    ['no providers', configDoc({ resources: ['secrets'], providers: [] }), /providers must be a non-empty list/],
    [
      'a resource listed twice',
      configDoc({ resources: ['secrets'], providers: [identity] }, { resources: ['secrets'], providers: [aesgcm('k')] }),
      /"secrets" is listed twice/,
    ],
    [
      'a resource masked by an earlier wildcard',
      configDoc({ resources: ['*.*'], providers: [identity] }, { resources: ['secrets'], providers: [aesgcm('k')] }),
      /masked by the earlier wildcard "\*\.\*"/,
    ],
    [
      'a group name masked by its group wildcard',
      configDoc({ resources: ['*.apps', 'deployments.apps'], providers: [aescbc('k')] }),
      /"deployments.apps" is masked by the earlier wildcard "\*\.apps"/,
    ],
    ['a wildcard Kubernetes does not know', configDoc({ resources: ['secrets.*'], providers: [identity] }), /is not a resource/],
  ];
  for (const [what, document, message] of refusals) {
    it(`refuses ${what}`, () => {
      assert.throws(
        () => parseEncryptionConfig(document, '/etc/enc.yaml'),
        (error: unknown) => {
          assert.ok(error instanceof EncryptionConfigError);
          assert.match(error.message, /^encryption provider config \/etc\/enc.yaml: /);
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }

  it('refuses a missing file and one that is not YAML', () => {
    assert.throws(() => loadEncryptionConfig(join(dir, 'missing.yaml')), /missing.yaml: cannot be read: ENOENT/);
    assert.throws(() => loadEncryptionConfig(file('bad.yaml', 'resources: [unclosed')), /is neither YAML nor JSON/);
  });
});
