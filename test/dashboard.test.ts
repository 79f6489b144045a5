// The dashboard in a real browser: `drover up` (a real cluster on Docker) prints the sign-in
// address, and Debian's Chromium, driven by playwright-core, signs in with it and works the pages
// against the real API: the overview's nodes and pods by phase, a Deployment scaled from the
// Workloads page, a pod's logs as the container writes them, an OOMKilled container, the YAML
// view, a shell in the browser, a forbidden action's Status message for a view-only user, and
// 5,000 pods in a virtualized list. Screenshots of each page go to test-artifacts/dashboard/.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { loadClientConfig, type ClientConfig } from '../src/client/config.js';
import { rawRequest } from './support/client/raw-request.js';
import { waitFor } from './support/wait-for.js';
import { removeNodeObjects } from './support/agent/agent-cluster.js';
import { launchChromium, openPage, requireChromium, signInAddress } from './support/browser.js';
import { startDroverProcess, type DroverProcess } from './support/drover-process.js';
import { kubectl, requireKubectl } from './support/kubectl.js';

const ARTIFACTS = resolve(import.meta.dirname, '../../test-artifacts/dashboard');
const IMAGE = 'drover-test/busybox:1';
const BULK = 5000;

describe('the dashboard in Chromium', { timeout: 300_000 }, () => {
  let dataDir: string;
  let up: DroverProcess;
  let signInUrl: string;
  let config: ClientConfig;
  let browser: Browser;
  let admin: BrowserContext;
  let page: Page;
  const nodeName = `dash-${process.pid}`;
  /** What the admin's page logged as errors: a Content-Security-Policy violation would show here. */
  const consoleErrors: string[] = [];
  const cspViolations = () => consoleErrors.filter((text) => /Content Security Policy/i.test(text));

  const k = (args: string[], input?: string) => kubectl(join(dataDir, 'kubeconfig'), args, input === undefined ? {} : { input });
  const api = async (method: string, path: string, body?: unknown) => {
    const answer = await rawRequest(
      config.server,
      config.tls!,
      method,
      path,
      body === undefined ? undefined : JSON.stringify(body),
      body === undefined ? {} : { 'Content-Type': 'application/json' },
    );
    return { status: answer.status, body: answer.json as any };
  };
  const shot = (name: string, target: Page = page) => target.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  const goTo = async (hash: string, target: Page = page) => {
    await target.evaluate((h) => (location.hash = h), hash);
  };

  before(
    async () => {
      requireKubectl();
      requireChromium();
      await mkdir(ARTIFACTS, { recursive: true });
      dataDir = await mkdtemp(join(tmpdir(), 'drover-dashboard-'));
      up = await startDroverProcess(['up', '--data-dir', dataDir, '--port', '0', '--node-name', nodeName, '--no-service-proxy'], 'dashboard: ', 90_000);
      // Not a terminal: drover up printed the address and the token's file, not the token.
      signInUrl = await signInAddress(up.output(), dataDir);
      config = await loadClientConfig({ kubeconfig: join(dataDir, 'kubeconfig') });
      browser = await launchChromium(config.server, config.tls!.ca!);
      admin = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      page = await admin.newPage();
      page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
      await k(['apply', '-f', '-'], WORKLOADS);
    },
    { timeout: 180_000 },
  );

  after(async () => {
    await browser?.close();
    await up?.stop();
    // A stopped node leaves its pods' containers running, as a stopped kubelet does.
    await removeNodeObjects(nodeName);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("drover up prints the dashboard's address last, and where the token is, not the token (no terminal); the token is the admin's, its file is 0600, and the static files need no credentials", async () => {
    // Last of what it prints on start (the controllers' own log lines may follow later).
    const lines = up.output().split('\n');
    const tokenFile = join(dataDir, 'dashboard-token');
    const dashboard = lines.findIndex(
      (line) => line.startsWith('dashboard: https://127.0.0.1:') && line.endsWith(`/ui/ (sign in with the admin token in ${tokenFile}; keep it private)`),
    );
    assert.ok(dashboard > 0 && dashboard === lines.findIndex((line) => line.startsWith('try: export KUBECONFIG=')) + 1, up.output());
    assert.ok(!up.output().includes((await readFile(tokenFile, 'utf8')).trim()), 'the admin token is in no log');
    assert.equal((await stat(join(dataDir, 'dashboard-token'))).mode & 0o777, 0o600);
    const index = await fetchNoCredentials(config, '/ui/');
    assert.equal(index.status, 200);
    assert.match(index.headers['content-security-policy'] ?? '', /default-src 'self'/);
    assert.equal(index.headers['cache-control'], 'no-cache');
    const script = /src="(\/ui\/assets\/[^"]+\.js)"/.exec(index.text)![1]!;
    const asset = await fetchNoCredentials(config, script);
    assert.equal(asset.status, 200);
    assert.match(asset.headers['cache-control'] ?? '', /immutable/);
    assert.equal((await fetchNoCredentials(config, '/ui')).headers['location'], '/ui/');
    assert.equal((await fetchNoCredentials(config, '/ui/assets/..%2f..%2fkubeconfig')).status, 404);
    // Everything else still needs credentials.
    assert.equal((await fetchNoCredentials(config, '/api/v1/pods')).status, 401);
  });

  it('signs in from the printed address (the token leaves the address bar), and the overview shows the node and pods by phase', async () => {
    await openPage(page, signInUrl);
    await page.locator('table[aria-label="nodes"] tr[data-node]').first().waitFor({ timeout: 30_000 });
    assert.doesNotMatch(page.url(), /token=/, 'the token is wiped from the address');
    assert.ok(await page.evaluate(() => sessionStorage.getItem('drover.token')), 'the token is kept in sessionStorage');
    assert.deepEqual(await page.evaluate(() => document.cookie), '', 'no cookie holds anything');
    assert.equal(await page.locator(`tr[data-node="${nodeName}"] td`).nth(1).textContent(), 'Ready');
    await waitFor('the talker pod to run', async () => (await api('GET', '/api/v1/namespaces/default/pods/talker')).body?.status?.phase === 'Running', 60_000);
    const running = page.locator('[data-phase="Running"] .count');
    await waitFor('the overview to count a Running pod', async () => Number(await running.textContent()) >= 1, 30_000);
    await shot('overview');
    assert.deepEqual(cspViolations(), [], 'nothing the page does breaks its CSP');
  });

  it('a Deployment scaled from the Workloads page reaches its new size in the API', async () => {
    await goTo('#/workloads');
    const row = page.locator('table[aria-label="Deployments"] tr[data-name="web"]');
    await row.waitFor({ timeout: 30_000 });
    await row.getByLabel('replicas of web').fill('3');
    await row.getByRole('button', { name: 'Scale' }).click();
    // The page says how the request went: the notice, or the API's Status in an alert.
    const outcome = page.locator('.notice, [role="alert"]').first();
    await outcome.waitFor({ timeout: 15_000 });
    assert.equal(await outcome.textContent(), 'scaled web to 3');
    await waitFor(
      'spec.replicas to be 3 in the API',
      async () => (await api('GET', '/apis/apps/v1/namespaces/default/deployments/web')).body?.spec?.replicas === 3,
      15_000,
    );
    await waitFor('the page to show 3/3 ready', async () => (await row.locator('td.ready').textContent()) === '3/3', 90_000);
    await shot('workloads');
  });

  it('Roll back returns a Deployment to its previous template, and Restart stamps it as kubectl rollout restart does', async () => {
    const web = async () => (await api('GET', '/apis/apps/v1/namespaces/default/deployments/web')).body;
    await k(['set', 'env', 'deployment/web', 'STAGE=two']);
    await waitFor('revision 2', async () => (await web()).metadata.annotations?.['deployment.kubernetes.io/revision'] === '2', 30_000);
    // Rolled back from what the page shows: wait until it shows revision 2.
    const row = page.locator('table[aria-label="Deployments"] tr[data-name="web"][data-revision="2"]');
    await row.waitFor({ timeout: 15_000 });
    await row.getByRole('button', { name: 'Roll back' }).click();
    const outcome = page.locator('.notice, [role="alert"]').first();
    await waitFor(
      'the roll back to be reported',
      async () => (await outcome.textContent())?.startsWith('rolled') || (await page.getByRole('alert').count()) > 0,
      15_000,
    );
    assert.equal(await outcome.textContent(), 'rolled web back');
    const rolledBack = await waitFor(
      'the template without STAGE',
      async () => {
        const d = await web();
        return d.spec.template.spec.containers[0].env === undefined && d.metadata.annotations?.['deployment.kubernetes.io/revision'] === '3' ? d : undefined;
      },
      30_000,
    );
    assert.equal(rolledBack.spec.template.metadata.labels['pod-template-hash'], undefined, "the ReplicaSet's hash label is not copied back");
    const current = page.locator('table[aria-label="Deployments"] tr[data-name="web"]');
    await current.getByRole('button', { name: 'Restart' }).click();
    await page.locator('.notice', { hasText: 'restarted web' }).waitFor({ timeout: 15_000 });
    const stamp = (await web()).spec.template.metadata.annotations?.['kubectl.kubernetes.io/restartedAt'];
    assert.ok(stamp && Math.abs(Date.parse(stamp) - Date.now()) < 120_000, `restartedAt is now: ${stamp}`);
  });

  it("a pod's logs stream as the container writes them, and the search keeps matching lines", async () => {
    await goTo('#/pod/default/talker');
    const logs = page.locator('pre[aria-label="logs"]');
    const first = await waitFor('a tick in the logs', async () => lastTick(await logs.textContent()), 30_000);
    const later = await waitFor(
      'a newer tick to stream in',
      async () => {
        const tick = lastTick(await logs.textContent());
        return tick !== undefined && tick > first + 2 ? tick : undefined;
      },
      30_000,
    );
    assert.ok(later > first);
    // A container started meanwhile gives the machine a new network interface, on which Chromium
    // may cut requests in flight (ERR_NETWORK_CHANGED; the page then picks the log up again from
    // its last timestamp): either way the lines run on, none lost and none twice.
    await k(['run', 'nudge', `--image=${IMAGE}`, '--restart=Never', '--', 'sleep', '3600']);
    await waitFor('the nudge pod to run', async () => (await api('GET', '/api/v1/namespaces/default/pods/nudge')).body?.status?.phase === 'Running', 60_000);
    const since = lastTick(await logs.textContent())!;
    await waitFor('ticks after the new container', async () => (lastTick(await logs.textContent()) ?? 0) > since + 3, 30_000);
    const ticks = [...(await logs.textContent())!.matchAll(/tick (\d+)/g)].map((m) => Number(m[1]));
    assert.deepEqual(
      ticks,
      ticks.map((_, i) => ticks[0]! + i),
      'the ticks run on, one by one',
    );
    assert.equal(await page.locator('.logs [role="alert"]').count(), 0);
    await page.getByLabel('search logs').fill('tick 1');
    await waitFor('the search to filter', async () => (await logs.textContent())!.split('\n').every((line) => line.includes('tick 1')), 10_000);
    const env = await page.locator('tr[data-container="talker"] td.env').textContent();
    assert.match(env!, /GREETING=hello/);
    assert.match(env!, /PASSWORD=•+ \(secret talker-secret\/password\)/, "a Secret's value is masked");
    await shot('pod-logs');
    await page.getByLabel('search logs').fill('');
  });

  it('the YAML view shows the pod as the API serves it', async () => {
    await page.getByRole('tab', { name: 'YAML' }).click();
    const yaml = page.locator('pre[aria-label="yaml"]');
    await waitFor('the YAML', async () => (await yaml.textContent())?.includes('kind: Pod'), 15_000);
    assert.match((await yaml.textContent())!, /name: talker/);
    await shot('pod-yaml');
  });

  it('the terminal runs a shell in the container and echoes its output', async () => {
    await page.getByRole('tab', { name: 'Terminal' }).click();
    await page.locator('[data-state="connected"]').waitFor({ timeout: 30_000 });
    await page.locator('.xterm-host').click();
    await page.keyboard.type('echo dash-$((6*7))\n');
    await waitFor('the command output in the terminal', async () => (await page.locator('.xterm-rows').textContent())?.includes('dash-42'), 20_000);
    await shot('pod-terminal');
    assert.deepEqual(cspViolations(), [], 'the terminal works within the CSP');
  });

  it('a container killed for memory shows OOMKilled with its exit code', async () => {
    await waitFor(
      'the hog to be OOM-killed',
      async () => {
        const pod = (await api('GET', '/api/v1/namespaces/default/pods/hog')).body;
        return pod?.status?.containerStatuses?.[0]?.state?.terminated?.reason === 'OOMKilled';
      },
      90_000,
    );
    await goTo('#/pod/default/hog');
    const state = page.locator('tr[data-container="hog"] td.state');
    await waitFor('OOMKilled on the page', async () => (await state.textContent())?.includes('OOMKilled'), 15_000);
    assert.match((await state.textContent())!, /terminated · OOMKilled · exit code 137/);
    await shot('pod-oomkilled');
    // The Pods list says it too, as kubectl's STATUS column does.
    await goTo('#/pods');
    const pods = page.getByRole('list', { name: 'Pods' });
    await waitFor('the hog in the Pods list as OOMKilled', async () => /hog\s*OOMKilled/.test((await pods.textContent()) ?? ''), 15_000);
    await shot('pods');
  });

  it("a view-only user signs in with a pasted token, and the scale it may not do shows the API's Status message", async () => {
    await k(['create', 'serviceaccount', 'viewer']);
    await k(['create', 'clusterrolebinding', 'viewer-view', '--clusterrole=view', '--serviceaccount=default:viewer']);
    const token = (await k(['create', 'token', 'viewer'])).trim();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const viewer = await context.newPage();
      await openPage(viewer, new URL('/ui/', config.server).toString());
      await viewer.getByLabel('Token').fill(token);
      await viewer.getByRole('button', { name: 'Sign in' }).click();
      await viewer.locator('table[aria-label="nodes"]').waitFor({ timeout: 30_000 });
      await goTo('#/workloads', viewer);
      const row = viewer.locator('table[aria-label="Deployments"] tr[data-name="web"]');
      await row.waitFor({ timeout: 30_000 });
      await row.getByLabel('replicas of web').fill('1');
      await row.getByRole('button', { name: 'Scale' }).click();
      // Lists the user may not read show their own Status (view does not cover every kind): pick the scale's.
      const alert = viewer.getByRole('alert').filter({ hasText: 'deployments/scale' });
      await alert.waitFor({ timeout: 15_000 });
      assert.match(
        (await alert.textContent())!,
        /deployments\.apps "web" is forbidden: User "system:serviceaccount:default:viewer" cannot patch resource "deployments\/scale"/,
      );
      await shot('workloads-forbidden', viewer);
      assert.equal((await api('GET', '/apis/apps/v1/namespaces/default/deployments/web')).body.spec.replicas, 3, 'nothing changed');
    } finally {
      await context.close();
    }
  });

  it(`${BULK} pods render in a virtualized list: only the rows in view are in the page`, async () => {
    await k(['create', 'namespace', 'bulk']);
    const names = Array.from({ length: BULK }, (_, i) => `pod-${String(i).padStart(4, '0')}`);
    // Bound to a node no agent serves: they stay Pending, and neither the scheduler nor an agent
    // spends anything on them. Over a few kept-alive connections: a TLS handshake per object
    // would take most of the test.
    const agent = new Agent({ keepAlive: true, maxSockets: 8, ca: config.tls!.ca, cert: config.tls!.cert, key: config.tls!.key });
    try {
      for (let i = 0; i < names.length; i += 64) {
        await Promise.all(
          names.slice(i, i + 64).map(async (name) => {
            const pod = {
              apiVersion: 'v1',
              kind: 'Pod',
              metadata: { name },
              spec: { nodeName: 'nowhere', containers: [{ name: 'main', image: 'drover-test/busybox:1' }] },
            };
            const status = await post(agent, config.server, '/api/v1/namespaces/bulk/pods', pod);
            assert.equal(status, 201);
          }),
        );
      }
    } finally {
      agent.destroy();
    }
    const started = Date.now();
    await goTo('#/pods');
    const list = page.getByRole('list', { name: 'Pods' });
    await waitFor('the list to hold every pod', async () => Number(await list.getAttribute('data-total')) >= BULK, 60_000);
    const rendered = Date.now() - started;
    const rows = await list.getByRole('listitem').count();
    assert.ok(rows > 5 && rows < 100, `only the rows in view are in the DOM (${rows})`);
    // The page still answers at once: a filter over 5,000 pods narrows the list.
    await page.getByLabel('filter Pods').fill('bulk/pod-4999');
    await waitFor('the filter to narrow to one', async () => (await list.getAttribute('data-total')) === '1', 10_000);
    assert.match((await list.getByRole('listitem').first().textContent())!, /pod-4999/);
    await page.getByLabel('filter Pods').fill('');
    await list.evaluate((element) => (element.scrollTop = element.scrollHeight));
    await waitFor('the last rows after a scroll to the end', async () => (await list.textContent())?.includes('pod-4999'), 10_000);
    await shot('pods-5000');
    console.log(`# ${BULK} pods listed and rendered in ${rendered} ms, ${rows} rows in the DOM`);
    assert.ok(rendered < 60_000);
  });

  it("the Transactions page shows the scale made from the page, by its user, among the workload's operations", async () => {
    await goTo('#/transactions');
    const web = page.locator('[data-target="default/deployment/web"]');
    await web.waitFor({ timeout: 30_000 });
    // The scale made from the page, as the user who made it: the dashboard's requests are the user's own.
    const scaled = web.locator('.tx-row[data-operation="scale"][data-phase="Succeeded"]', { hasText: 'replicas changed from 1 to 3' });
    await scaled.first().waitFor({ timeout: 60_000 });
    assert.match((await scaled.first().textContent())!, /by drover-admin/);
    assert.ok((await web.locator('.tx-row[data-operation="update"]').count()) >= 1, 'the roll back and the restart show as update steps');
    await shot('transactions');
  });
});

function post(agent: Agent, server: string, path: string, body: unknown): Promise<number> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, server),
      { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.once('error', reject);
    req.end(payload);
  });
}

function lastTick(text: string | null): number | undefined {
  const ticks = [...(text ?? '').matchAll(/tick (\d+)/g)].map((m) => Number(m[1]));
  return ticks.length > 0 ? ticks[ticks.length - 1] : undefined;
}

/** A request with no credentials at all (no client certificate, no token), as a browser's first load is. */
async function fetchNoCredentials(config: ClientConfig, path: string) {
  const answer = await rawRequest(config.server, { ca: config.tls!.ca! }, 'GET', path);
  return { status: answer.status, text: answer.text, headers: answer.headers as Record<string, string | undefined> };
}

const WORKLOADS = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      terminationGracePeriodSeconds: 1
      containers:
      - name: web
        image: ${IMAGE}
        command: [sh, -c, 'trap exit TERM; while true; do sleep 1; done']
        resources: {requests: {cpu: 10m, memory: 8Mi}, limits: {cpu: 100m, memory: 32Mi}}
---
apiVersion: v1
kind: Pod
metadata: {name: talker}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: talker
    image: ${IMAGE}
    command: [sh, -c, 'trap exit TERM; i=0; while true; do echo tick $i; i=$((i+1)); sleep 0.5; done']
    env:
    - {name: GREETING, value: hello}
    - name: PASSWORD
      valueFrom: {secretKeyRef: {name: talker-secret, key: password, optional: true}}
---
apiVersion: v1
kind: Pod
metadata: {name: hog}
spec:
  restartPolicy: Never
  containers:
  - name: hog
    image: ${IMAGE}
    command: [tail, /dev/zero]
    resources: {limits: {memory: 16Mi}}
`;
