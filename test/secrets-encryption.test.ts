// Secrets encrypted at rest on a real `drover server --encryption-provider-config`, driven with
// kubectl: the Secret is sealed in state.db, reads back, and after the key order is flipped the
// Kubernetes way to re-encrypt (`kubectl get secrets -A -o json | kubectl replace -f -`) moves
// every Secret to the new first key although nothing in them changed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { kubectl, requireKubectl } from './support/kubectl.js';
import { DROVER_BIN, startServerProcess, type ServerProcess } from './support/server-process.js';

const PLAINTEXT = 'correct-horse-battery-staple';
const GCM_KEY = Buffer.alloc(32, 0x5a).toString('base64');
const CBC_KEY = Buffer.alloc(32, 0xa5).toString('base64');

function config(first: 'aesgcm' | 'aescbc'): string {
  const gcm = `      - aesgcm:\n          keys:\n            - name: key1\n              secret: ${GCM_KEY}\n`;
  const cbc = `      - aescbc:\n          keys:\n            - name: key2\n              secret: ${CBC_KEY}\n`;
  return `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources:
      - secrets
    providers:
${first === 'aesgcm' ? gcm + cbc : cbc + gcm}      - identity: {}
`;
}

/** Every byte of state.db and its WAL, as latin1 text to search in. */
async function stateBytes(dataDir: string): Promise<string> {
  const files = (await readdir(dataDir)).filter((name) => name.startsWith('state.db'));
  return Buffer.concat(await Promise.all(files.map((name) => readFile(join(dataDir, name))))).toString('latin1');
}

/** Each stored Secret's key → the provider prefix of its value, read by SQLite (the server stopped). */
function secretPrefixes(dataDir: string): Map<string, string> {
  const db = new Database(join(dataDir, 'state.db'), { readonly: true });
  try {
    const rows = db
      .prepare(`SELECT key, CAST(substr(value, 1, 40) AS TEXT) FROM kv WHERE key >= '/registry/secrets/' AND key < '/registry/secrets0'`)
      .raw()
      .all() as Array<[string, string]>;
    return new Map(rows.map(([key, head]) => [key, /^k8s:enc:\w+:v1:[^:]+:/.exec(head)?.[0] ?? 'plaintext']));
  } finally {
    db.close();
  }
}

describe('drover server --encryption-provider-config', () => {
  let dir: string;
  let server: ServerProcess | undefined;
  before(async () => {
    requireKubectl();
    dir = await mkdtemp(join(tmpdir(), 'drover-encrypt-e2e-'));
  });
  after(async () => {
    await server?.stop();
    await server?.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  const start = (configPath: string, dataDir?: string) =>
    startServerProcess({ ...(dataDir ? { dataDir } : {}), extraArgs: ['--no-control-plane', '--encryption-provider-config', configPath] });

  it('seals Secrets in state.db, reads them back, and re-encrypts them with kubectl replace after the key order flips', async () => {
    const gcmFirst = join(dir, 'gcm-first.yaml');
    await writeFile(gcmFirst, config('aesgcm'), { mode: 0o600 });
    server = await start(gcmFirst);
    const { kubeconfig, dataDir } = server;
    await kubectl(kubeconfig, ['create', 'secret', 'generic', 'db', '--from-literal', `password=${PLAINTEXT}`]);
    await kubectl(kubeconfig, ['create', 'namespace', 'other']);
    await kubectl(kubeconfig, ['-n', 'other', 'create', 'secret', 'generic', 'api', '--from-literal', `token=${PLAINTEXT}`]);
    const read = await kubectl(kubeconfig, ['get', 'secret', 'db', '-o', 'jsonpath={.data.password}']);
    assert.equal(Buffer.from(read, 'base64').toString(), PLAINTEXT);
    const bytes = await stateBytes(dataDir);
    assert.ok(!bytes.includes(PLAINTEXT) && !bytes.includes(Buffer.from(PLAINTEXT).toString('base64')), 'neither the value nor its base64 is in state.db');
    assert.ok(bytes.includes('k8s:enc:aesgcm:v1:key1:'));
    assert.ok(!server.output().includes('DroverSecurityWarning'), 'an 0600 config draws no warning');
    await server.stop();
    assert.deepEqual([...secretPrefixes(dataDir).values()], ['k8s:enc:aesgcm:v1:key1:', 'k8s:enc:aesgcm:v1:key1:']);

    // The same keys, aescbc first, in a file others may read: the server warns and starts.
    const cbcFirst = join(dir, 'cbc-first.yaml');
    await writeFile(cbcFirst, config('aescbc'));
    await chmod(cbcFirst, 0o644);
    server = await start(cbcFirst, dataDir);
    assert.match(server.output(), /cbc-first.yaml is mode 0644: it holds the encryption keys, make it 0600/);
    const again = await kubectl(server.kubeconfig, ['-n', 'other', 'get', 'secret', 'api', '-o', 'jsonpath={.data.token}']);
    assert.equal(Buffer.from(again, 'base64').toString(), PLAINTEXT, 'read with the key that is now second');
    const all = await kubectl(server.kubeconfig, ['get', 'secrets', '-A', '-o', 'json']);
    const replaced = await kubectl(server.kubeconfig, ['replace', '-f', '-'], { input: all });
    assert.match(replaced, /secret\/db replaced/);
    assert.match(replaced, /secret\/api replaced/);
    await server.stop();
    const prefixes = secretPrefixes(dataDir);
    assert.deepEqual([...prefixes.keys()].sort(), ['/registry/secrets/default/db', '/registry/secrets/other/api']);
    for (const [key, prefix] of prefixes) assert.equal(prefix, 'k8s:enc:aescbc:v1:key2:', key);
    assert.ok(!(await stateBytes(dataDir)).includes(PLAINTEXT));
  });

  it('refuses to start on a config it cannot use, saying why, with exit code 1', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['short-key.yaml', config('aesgcm').replace(GCM_KEY, Buffer.alloc(20).toString('base64')), /key key1\) is 20 bytes; aesgcm needs 16, 24 or 32/],
      ['bad-base64.yaml', config('aesgcm').replace(GCM_KEY, 'not*base64'), /key key1\) is not valid base64/],
      ['secretbox.yaml', config('aesgcm').replace('aesgcm', 'secretbox'), /secretbox is not supported by Drover/],
      ['unknown.yaml', config('aesgcm').replace('aesgcm', 'rot13'), /unknown provider "rot13"/],
    ];
    for (const [name, text, message] of cases) {
      const path = join(dir, name);
      await writeFile(path, text, { mode: 0o600 });
      const run = spawnSync(DROVER_BIN, ['server', '--data-dir', join(dir, 'refused'), '--port', '0', '--encryption-provider-config', path], {
        encoding: 'utf8',
        timeout: 20_000,
      });
      assert.equal(run.status, 1, `${name}: ${run.stdout}${run.stderr}`);
      assert.equal(run.stdout, '', `${name} printed nothing about listening`);
      assert.match(run.stderr, new RegExp(`encryption provider config ${path.replace(/[.]/g, '\\.')}: `));
      assert.match(run.stderr, message);
    }
    const missing = spawnSync(
      DROVER_BIN,
      ['server', '--data-dir', join(dir, 'refused'), '--port', '0', '--encryption-provider-config', join(dir, 'missing.yaml')],
      { encoding: 'utf8', timeout: 20_000 },
    );
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /missing\.yaml: cannot be read: ENOENT/);
  });
});
