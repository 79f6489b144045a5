import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { kubeconfigFor } from '../cluster/kubeconfig.js';
import { loadClientConfig } from './config.js';

let dir: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'drover-config-'));
});
after(() => rm(dir, { recursive: true, force: true }));

const twoContexts = {
  apiVersion: 'v1',
  kind: 'Config',
  'current-context': 'dev',
  clusters: [
    { name: 'dev-cluster', cluster: { server: 'http://127.0.0.1:7001/', 'certificate-authority-data': Buffer.from('CA PEM').toString('base64') } },
    { name: 'prod-cluster', cluster: { server: 'https://prod.example:6443', 'insecure-skip-tls-verify': true } },
  ],
  users: [
    { name: 'dev-user', user: { token: 'dev-token' } },
    { name: 'prod-user', user: { tokenFile: 'token.txt' } },
  ],
  contexts: [
    { name: 'dev', context: { cluster: 'dev-cluster', user: 'dev-user', namespace: 'team-a' } },
    { name: 'prod', context: { cluster: 'prod-cluster', user: 'prod-user' } },
  ],
};

describe('loadClientConfig', () => {
  it('reads the current context of an explicit kubeconfig', async () => {
    const path = join(dir, 'explicit.yaml');
    await writeFile(path, stringify(twoContexts));
    const config = await loadClientConfig({ kubeconfig: path });
    assert.equal(config.server, 'http://127.0.0.1:7001');
    assert.equal(config.namespace, 'team-a');
    assert.equal(config.token, 'dev-token');
    assert.equal(config.tls?.ca?.toString(), 'CA PEM');
    assert.equal(config.contextName, 'dev');
  });

  it('follows another context, token files relative to the kubeconfig, and overrides', async () => {
    const path = join(dir, 'explicit.yaml');
    await writeFile(join(dir, 'token.txt'), 'file-token\n');
    const config = await loadClientConfig({ kubeconfig: path, context: 'prod', namespace: 'ops' });
    assert.equal(config.server, 'https://prod.example:6443');
    assert.equal(config.token, 'file-token');
    assert.equal(config.tls?.insecureSkipVerify, true);
    assert.equal(config.namespace, 'ops');
    const overridden = await loadClientConfig({ kubeconfig: path, server: 'http://127.0.0.1:9999' });
    assert.equal(overridden.server, 'http://127.0.0.1:9999');
  });

  it('takes the first file of KUBECONFIG, else ~/.kube/config, as kubectl does', async () => {
    const first = join(dir, 'first.yaml');
    await writeFile(first, kubeconfigFor('http://127.0.0.1:7100', {}));
    const env = { KUBECONFIG: [join(dir, 'missing.yaml'), first, join(dir, 'explicit.yaml')].join(':') };
    assert.equal((await loadClientConfig({ env, homeDir: dir })).server, 'http://127.0.0.1:7100');
    const home = join(dir, 'home');
    await mkdir(join(home, '.kube'), { recursive: true });
    await writeFile(join(home, '.kube', 'config'), kubeconfigFor('http://127.0.0.1:7200', {}));
    const fromHome = await loadClientConfig({ env: {}, homeDir: home });
    assert.equal(fromHome.server, 'http://127.0.0.1:7200');
    assert.equal(fromHome.namespace, 'default');
  });

  it('needs either a server or a kubeconfig', async () => {
    const empty = join(dir, 'empty-home');
    assert.equal((await loadClientConfig({ env: {}, homeDir: empty, server: 'http://127.0.0.1:1' })).server, 'http://127.0.0.1:1');
    await assert.rejects(loadClientConfig({ env: {}, homeDir: empty }), /no cluster configured/);
    await assert.rejects(loadClientConfig({ kubeconfig: join(dir, 'nope.yaml') }), /does not exist/);
  });
});
