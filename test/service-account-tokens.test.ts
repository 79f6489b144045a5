// Service-account tokens end to end on `drover server` with a `drover agent`: a pod's projected token, with the ca.crt
// beside it, lets the pod's own code call the API as its ServiceAccount, which RBAC allows
// exactly what its Role grants; the token dies with the pod; `kubectl create token` makes a
// token kubectl can use; TokenReview answers for both.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { startAgentProcess, type AgentProcess } from './support/agent-process.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { waitFor } from './support/wait-for.js';
import { ensureDocker } from './support/repo.js';

const NS = 'sa-e2e';

// What an in-cluster client does (client-go's rest.InClusterConfig): the API from
// KUBERNETES_SERVICE_HOST/PORT, trust from ca.crt, identity from token. Host processes see no
// mounts, so they find the three files in DROVER_SERVICE_ACCOUNT_DIR.
const CLIENT = `
const fs = require('fs'), https = require('https'), path = require('path');
const dir = process.env.DROVER_SERVICE_ACCOUNT_DIR;
const file = (name) => fs.readFileSync(path.join(dir, name), 'utf8');
const ns = file('namespace');
function get(resource) {
  return new Promise((resolve) => {
    const req = https.get({
      host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT,
      path: '/api/v1/namespaces/' + ns + '/' + resource, ca: file('ca.crt'),
      headers: { Authorization: 'Bearer ' + file('token') },
    }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); });
    req.on('error', (e) => resolve('error ' + e.message));
  });
}
(async () => {
  console.log('dir=' + dir);
  console.log('namespace=' + ns);
  console.log('configmaps=' + await get('configmaps'));
  console.log('secrets=' + await get('secrets'));
  setInterval(() => {}, 60000);
})();
`;

describe('service-account tokens', () => {
  let cluster: ServerProcess;
  let agent: AgentProcess | undefined;
  let ca: string;
  const k = (...args: string[]) => kubectl(cluster.kubeconfig, args);
  /** kubectl as the holder of `token` alone: no client certificate. */
  const asToken = (token: string, ...args: string[]) =>
    kubectlRaw('/dev/null', ['--server', cluster.url, '--certificate-authority', ca, '--token', token, ...args]);

  before(async () => {
    requireKubectl();
    ensureDocker();
    cluster = await startServerProcess();
    agent = await startAgentProcess(cluster, `sa-${process.pid}`);
    ca = join(cluster.dataDir, 'tls', 'ca.crt');
    await k('create', 'namespace', NS);
    await k('-n', NS, 'create', 'serviceaccount', 'reader');
    await k('-n', NS, 'create', 'role', 'cm-reader', '--verb=list', '--resource=configmaps');
    await k('-n', NS, 'create', 'rolebinding', 'cm-reader', '--role=cm-reader', `--serviceaccount=${NS}:reader`);
  });
  after(async () => {
    if (cluster) await kubectlRaw(cluster.kubeconfig, ['delete', 'namespace', NS, '--wait=true', '--timeout=60s']);
    await agent?.stop();
    await cluster?.stop();
    await cluster?.cleanup();
  });

  it('every namespace has kube-root-ca.crt with the cluster CA', async () => {
    const published = await waitFor(
      'kube-root-ca.crt',
      async () =>
        (await kubectlRaw(cluster.kubeconfig, ['-n', NS, 'get', 'configmap', 'kube-root-ca.crt', '-o', 'jsonpath={.data.ca\\.crt}'])).stdout || undefined,
      10_000,
    );
    assert.equal(published, await readFile(ca, 'utf8'));
  });

  it('a host-process pod calls the API with its projected token: allowed what its Role grants, 403 otherwise; the token dies with the pod', async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'client', namespace: NS },
      spec: {
        runtimeClassName: 'process',
        serviceAccountName: 'reader',
        terminationGracePeriodSeconds: 1,
        containers: [{ name: 'main', image: 'host', command: [process.execPath, '-e', CLIENT] }],
      },
    };
    await kubectl(cluster.kubeconfig, ['create', '-f', '-'], { input: JSON.stringify(pod) });
    const volumes = JSON.parse(await k('-n', NS, 'get', 'pod', 'client', '-o', 'jsonpath={.spec.volumes}')) as Array<{ name: string }>;
    assert.match(volumes[0]!.name, /^kube-api-access-/);
    const logs = await waitFor(
      'the pod to call the API',
      async () => {
        const text = await k('-n', NS, 'logs', 'client');
        return text.includes('secrets=') ? text : undefined;
      },
      60_000,
    );
    assert.match(logs, new RegExp(`namespace=${NS}`));
    assert.match(logs, /configmaps=200/);
    assert.match(logs, /secrets=403/);
    const dir = /dir=(.+)/.exec(logs)![1]!;
    const token = await readFile(join(dir, 'token'), 'utf8');
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, any>;
    assert.equal(claims['sub'], `system:serviceaccount:${NS}:reader`);
    assert.equal(claims['exp'] - claims['iat'], 3607);
    assert.equal(claims['kubernetes.io'].pod.name, 'client');
    const whoami = await asToken(token, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}');
    assert.equal(whoami.stdout, `system:serviceaccount:${NS}:reader`, whoami.stderr);

    await k('-n', NS, 'delete', 'pod', 'client', '--wait=true', '--timeout=60s');
    const refused = await waitFor(
      'the token to be refused',
      async () => {
        const answer = await asToken(token, 'auth', 'whoami');
        return answer.code !== 0 ? answer : undefined;
      },
      15_000,
    );
    assert.match(refused.stderr, /Unauthorized|must be logged in/);
  });

  it('a Docker pod sees token, ca.crt and namespace at /var/run/secrets/kubernetes.io/serviceaccount', async () => {
    await k(
      '-n',
      NS,
      'run',
      'mounted',
      '--image=drover-test/busybox:1',
      '--overrides={"spec":{"serviceAccountName":"reader","terminationGracePeriodSeconds":1}}',
      '--',
      'sleep',
      '3600',
    );
    await waitFor('mounted Running', async () => (await k('-n', NS, 'get', 'pod', 'mounted', '-o', 'jsonpath={.status.phase}')) === 'Running', 60_000);
    const dir = '/var/run/secrets/kubernetes.io/serviceaccount';
    assert.equal(await k('-n', NS, 'exec', 'mounted', '--', 'cat', `${dir}/namespace`), NS);
    assert.equal(await k('-n', NS, 'exec', 'mounted', '--', 'cat', `${dir}/ca.crt`), await readFile(ca, 'utf8'));
    const token = await k('-n', NS, 'exec', 'mounted', '--', 'cat', `${dir}/token`);
    assert.equal((await asToken(token, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}')).stdout, `system:serviceaccount:${NS}:reader`);
    const write = await kubectlRaw(cluster.kubeconfig, ['-n', NS, 'exec', 'mounted', '--', 'sh', '-c', `echo x > ${dir}/token`]);
    assert.notEqual(write.code, 0, 'the volume is read-only');
    await k('-n', NS, 'delete', 'pod', 'mounted', '--wait=true', '--timeout=60s');
  });

  it('kubectl create token: a token kubectl can use, that TokenReview accepts', async () => {
    const token = (await k('-n', NS, 'create', 'token', 'reader', '--duration', '10m')).trim();
    const whoami = await asToken(token, 'auth', 'whoami', '-o', 'json');
    assert.equal(whoami.code, 0, whoami.stderr);
    const user = JSON.parse(whoami.stdout).status.userInfo;
    assert.equal(user.username, `system:serviceaccount:${NS}:reader`);
    assert.deepEqual(user.groups, ['system:serviceaccounts', `system:serviceaccounts:${NS}`, 'system:authenticated']);
    assert.equal((await asToken(token, '-n', NS, 'get', 'configmaps', '-o', 'name')).code, 0);
    const forbidden = await asToken(token, '-n', NS, 'get', 'secrets');
    assert.match(forbidden.stderr, /Forbidden/);
    const short = await kubectlRaw(cluster.kubeconfig, ['-n', NS, 'create', 'token', 'reader', '--duration', '5m']);
    assert.match(short.stderr, /may not specify a duration less than 10 minutes/);
    const missing = await kubectlRaw(cluster.kubeconfig, ['-n', NS, 'create', 'token', 'nobody']);
    assert.match(missing.stderr, /serviceaccounts "nobody" not found/);

    const review = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } };
    const answer = JSON.parse(await kubectl(cluster.kubeconfig, ['create', '-f', '-', '-o', 'json'], { input: JSON.stringify(review) }));
    assert.equal(answer.status.authenticated, true);
    assert.equal(answer.status.user.username, `system:serviceaccount:${NS}:reader`);
    const bad = JSON.parse(
      await kubectl(cluster.kubeconfig, ['create', '-f', '-', '-o', 'json'], { input: JSON.stringify({ ...review, spec: { token: `${token}x` } }) }),
    );
    assert.equal(bad.status.authenticated, false);
  });
});
