// Agents join with the server's token, as k3s agents do: `drover agent --server URL --token T`
// checks the CA it fetches against the token, asks for its node certificate with a
// CertificateSigningRequest (auto-approved, signed by the cluster CA), keeps it in its data dir
// (0600), and runs pods under that identity — which reads only what its own pods use.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kubeconfigFor } from '../src/cluster/kubeconfig.js';
import { startDroverProcess, type DroverProcess } from './support/drover-process.js';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { joinToken, startAgentProcess, type AgentProcess } from './support/agent-process.js';
import { spawnDrover, startServerProcess, type ServerProcess } from './support/server-process.js';
import { waitFor } from './support/wait-for.js';

describe('drover agent --token', { timeout: 120_000 }, () => {
  let server: ServerProcess;
  let token: string;
  let dataDir: string;
  let agent: DroverProcess | undefined;
  let other: AgentProcess | undefined;
  const k = (args: string[], input?: string) => kubectl(server.kubeconfig, args, input === undefined ? {} : { input });
  const startJoiner = () =>
    startDroverProcess(
      ['agent', '--server', server.url, '--token', token, '--node-name', 'join-a', '--data-dir', dataDir, '--runtime', 'process', '--no-service-proxy'],
      'node join-a ready',
    );
  /** A kubeconfig for the agent's own identity, from the files it keeps. */
  const agentKubeconfig = async () => {
    const pki = join(dataDir, 'pki');
    const path = join(dataDir, 'as-node.kubeconfig');
    const tls = { ca: await readFile(join(pki, 'ca.crt')), cert: await readFile(join(pki, 'client.crt')), key: await readFile(join(pki, 'client.key')) };
    await writeFile(path, kubeconfigFor(server.url, tls), { mode: 0o600 });
    return path;
  };

  before(async () => {
    requireKubectl();
    server = await startServerProcess();
    token = await joinToken(server);
    dataDir = await mkdtemp(join(tmpdir(), 'drover-join-'));
  });

  after(async () => {
    await agent?.stop();
    await other?.stop();
    await server?.stop();
    await server?.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('joins: the node is Ready, its CSR Approved,Issued for system:bootstrap:drover, its files its own', async () => {
    assert.match(token, /^D10[0-9a-f]{64}::/);
    agent = await startJoiner();
    await k(['wait', '--for=condition=Ready', 'node/join-a', '--timeout=30s']);
    const csrs = await k(['get', 'csr', '--no-headers']);
    assert.match(csrs, /^node-csr-join-a-\S+\s+\S+\s+kubernetes\.io\/kube-apiserver-client-kubelet\s+system:bootstrap:drover\s+<none>\s+Approved,Issued$/m);
    // Then, as the node, its streaming endpoint's serving certificate.
    assert.match(csrs, /^node-serving-join-a-\S+\s+\S+\s+kubernetes\.io\/kubelet-serving\s+system:node:join-a\s+<none>\s+Approved,Issued$/m);
    assert.equal(csrs.trim().split('\n').length, 2);
    const pki = join(dataDir, 'pki');
    assert.equal((await stat(pki)).mode & 0o777, 0o700);
    for (const file of ['ca.crt', 'client.key', 'client.crt', 'serving.key', 'serving.crt'])
      assert.equal((await stat(join(pki, file))).mode & 0o777, 0o600, file);
    assert.equal(await kubectl(await agentKubeconfig(), ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']), 'system:node:join-a');
  });

  it('runs a pod on the joined node', async () => {
    await k(
      ['apply', '-f', '-'],
      `apiVersion: v1
kind: Pod
metadata: {name: on-join-a}
spec:
  nodeName: join-a
  runtimeClassName: process
  terminationGracePeriodSeconds: 1
  containers: [{name: main, image: none, command: ["sh", "-c", "echo joined; sleep 300"]}]
`,
    );
    await k(['wait', '--for=condition=Ready', 'pod/on-join-a', '--timeout=30s']);
    await waitFor("the pod's log", async () => (await k(['logs', 'on-join-a'])).includes('joined'), 10_000);
  });

  it("reads only what its own pods use: another node's pod and Secret are 403", async () => {
    other = await startAgentProcess(server, 'join-b', ['--runtime', 'process']);
    await k(['create', 'secret', 'generic', 'b-only', '--from-literal=k=v']);
    await k(
      ['apply', '-f', '-'],
      `apiVersion: v1
kind: Pod
metadata: {name: on-join-b}
spec:
  nodeName: join-b
  runtimeClassName: process
  terminationGracePeriodSeconds: 1
  containers: [{name: main, image: none, command: ["sh", "-c", "sleep 300"], env: [{name: K, valueFrom: {secretKeyRef: {name: b-only, key: k}}}]}]
`,
    );
    await k(['wait', '--for=condition=Ready', 'pod/on-join-b', '--timeout=30s']);
    const asA = await agentKubeconfig();
    for (const what of ['pod/on-join-b', 'secret/b-only']) {
      const result = await kubectlRaw(asA, ['get', what]);
      assert.notEqual(result.code, 0, `${what} is not join-a's to read`);
      assert.match(result.stderr, /Forbidden|forbidden/, result.stderr);
    }
    assert.equal(await kubectl(asA, ['get', 'pod/on-join-a', '-o', 'jsonpath={.spec.nodeName}']), 'join-a');
  });

  it("serves logs and exec over TLS to the API server only: no client certificate, or a node's, gets nothing", async () => {
    const streaming = /streaming on (https:\/\/[^\s)]+)/.exec(agent!.output())?.[1];
    assert.ok(streaming, agent!.output());
    const pki = join(dataDir, 'pki');
    const ca = await readFile(join(pki, 'ca.crt'));
    const get = (tls: { cert?: Buffer; key?: Buffer }) =>
      new Promise<number>((resolve, reject) => {
        const req = httpsRequest(`${streaming}/healthz`, { ca, ...tls, agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    await assert.rejects(get({}), 'no client certificate: refused in the handshake');
    await assert.rejects(
      get({ cert: await readFile(join(pki, 'client.crt')), key: await readFile(join(pki, 'client.key')) }),
      'a node may not use another agent',
    );
    assert.equal(await get({ cert: server.tls.cert!, key: server.tls.key! }), 200, 'an admin may');
    assert.match(await k(['exec', 'on-join-a', '--', 'sh', '-c', 'echo through-tls']), /through-tls/);
  });

  it('restarts with the certificate it has: no new CSR, no token needed', async () => {
    await agent!.stop();
    const certBefore = await readFile(join(dataDir, 'pki', 'client.crt'), 'utf8');
    agent = await startDroverProcess(
      ['agent', '--server', server.url, '--node-name', 'join-a', '--data-dir', dataDir, '--runtime', 'process', '--no-service-proxy'],
      'node join-a ready',
    );
    await k(['wait', '--for=condition=Ready', 'node/join-a', '--timeout=30s']);
    assert.equal(await readFile(join(dataDir, 'pki', 'client.crt'), 'utf8'), certBefore);
    const names = (await k(['get', 'csr', '-o', 'jsonpath={.items[*].metadata.name}'])).split(' ');
    assert.equal(names.filter((name) => name.startsWith('node-csr-join-a-')).length, 1, names.join(' '));
    assert.equal(names.filter((name) => name.startsWith('node-serving-join-a-')).length, 1, names.join(' '));
  });

  it("refuses a token whose CA hash is not the cluster's", async () => {
    const wrong = token.replace(/^D10[0-9a-f]{64}/, `D10${'0'.repeat(64)}`);
    const fresh = await mkdtemp(join(tmpdir(), 'drover-join-wrong-'));
    try {
      const child = spawnDrover([
        'agent',
        '--server',
        server.url,
        '--token',
        wrong,
        '--node-name',
        'join-c',
        '--data-dir',
        fresh,
        '--runtime',
        'process',
        '--no-service-proxy',
      ]);
      let output = '';
      child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      assert.notEqual(code, 0);
      assert.match(output, /does not match the join token/);
      await assert.rejects(stat(join(fresh, 'pki', 'client.key')), 'no key kept');
      assert.doesNotMatch(await k(['get', 'csr', '--no-headers']), /join-c/);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });
});
