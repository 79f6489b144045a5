// The dashboard's usage figures and charts, checked against the kernel: on a real `drover up`
// cluster, a CPU burner held to 200m and a Deployment's pod holding 40 MiB; the test reads each
// container's cgroup files itself, runs `kubectl top pod`, and reads the figure the page shows
// in Chromium. All three agree within 10 % (medians of several samples, each compared over the
// very window its figure covers, so a loaded machine's ups and downs do not count). The pod page
// and the overview chart the last hour from the metrics history. Screenshots go to
// test-artifacts/dashboard/.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { loadClientConfig } from '../src/client/config.js';
import { waitFor } from './support/wait-for.js';
import { parseQuantity } from '../src/api/validation/quantity.js';
import { launchChromium, openPage, requireChromium, signInAddress } from './support/browser.js';
import { CpuReadings, containerPid, cpuCounterOf, workingSetOf } from './support/cgroup-figures.js';
import { startDroverProcess, type DroverProcess } from './support/drover-process.js';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { removeNodeObjects } from './support/agent/agent-cluster.js';

const ARTIFACTS = resolve(import.meta.dirname, '../../test-artifacts/dashboard');
const MiB = 1024 * 1024;

const MANIFESTS = `
apiVersion: v1
kind: Pod
metadata: {name: burn}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: burn
    image: drover-test/busybox:1
    command: [sh, -c, 'while :; do :; done']
    resources: {requests: {cpu: 100m}, limits: {cpu: 200m}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: holder}
spec:
  replicas: 1
  selector: {matchLabels: {app: holder}}
  template:
    metadata: {labels: {app: holder}}
    spec:
      terminationGracePeriodSeconds: 1
      containers:
      - name: hold
        image: drover-test/busybox:1
        command: [sh, -c, 'dd if=/dev/zero of=/dev/shm/fill bs=1048576 count=40 && exec sleep 3600']
        resources: {requests: {cpu: 10m, memory: 64Mi}, limits: {memory: 128Mi}}
`;

/** "198m" or "1.2" (cores) as millicores; "41Mi", "9.5Mi", "1.2Gi" as bytes: kubectl's and the page's forms, read as the API reads quantities. */
const millicores = (text: string) => (parseQuantity(text.trim()) ?? Number.NaN) * 1000;
const bytes = (text: string) => parseQuantity(text.trim()) ?? Number.NaN;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
/** How far `figure` is from `truth`, as a share of the truth. */
const off = (figure: number, truth: number) => Math.abs(figure - truth) / truth;

interface TopReading {
  cpu: number;
  memory: number;
  /** The PodMetrics' timestamp (whole seconds) and window, which `kubectl top` does not print. */
  timestamp: string;
  windowMs: number;
}

describe("the dashboard's usage figures and charts, against the cgroups", { timeout: 480_000 }, () => {
  let dataDir: string;
  let up: DroverProcess;
  let browser: Browser;
  let page: Page;
  const nodeName = `usage-${process.pid}`;
  const k = (args: string[], input?: string) => kubectl(join(dataDir, 'kubeconfig'), args, input === undefined ? {} : { input });
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  const goTo = (hash: string) => page.evaluate((h) => (location.hash = h), hash);
  /** The metrics requests the page made, by path. */
  const metricsRequests: Array<{ at: number; path: string }> = [];

  /**
   * `kubectl top pod` between two raw reads of the same PodMetrics: the API server serves one
   * fan-out for a few seconds, so when both reads agree, top printed those figures too.
   */
  const top = async (pod: string): Promise<TopReading | undefined> => {
    const raw = async () =>
      JSON.parse(await k(['get', '--raw', `/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/${pod}`])) as { timestamp: string; window: string };
    const first = await raw();
    const [, cpu, memory] = (await k(['top', 'pod', pod, '--no-headers'])).trim().split(/\s+/) as [string, string, string];
    const second = await raw();
    if (first.timestamp !== second.timestamp || first.window !== second.window) return undefined;
    return { cpu: millicores(cpu), memory: bytes(memory), timestamp: second.timestamp, windowMs: Number.parseFloat(second.window) * 1000 };
  };

  before(
    async () => {
      requireKubectl();
      requireChromium();
      await mkdir(ARTIFACTS, { recursive: true });
      dataDir = await mkdtemp(join(tmpdir(), 'drover-dashboard-usage-'));
      up = await startDroverProcess(['up', '--data-dir', dataDir, '--port', '0', '--node-name', nodeName, '--no-service-proxy'], 'dashboard: ', 90_000);
      const signInUrl = await signInAddress(up.output(), dataDir);
      const config = await loadClientConfig({ kubeconfig: join(dataDir, 'kubeconfig') });
      browser = await launchChromium(config.server, config.tls!.ca!);
      page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
      page.on('request', (request) => {
        const path = new URL(request.url()).pathname;
        if (path.startsWith('/apis/metrics.k8s.io/')) metricsRequests.push({ at: Date.now(), path });
      });
      await k(['apply', '-f', '-'], MANIFESTS);
      await k(['wait', '--for=condition=Ready', 'pod/burn', '--timeout=90s']);
      await k(['rollout', 'status', 'deployment/holder', '--timeout=90s']);
      await openPage(page, signInUrl);
      await page.locator('table[aria-label="nodes"] tr[data-node]').first().waitFor({ timeout: 30_000 });
    },
    { timeout: 240_000 },
  );

  after(async () => {
    await browser?.close();
    if (dataDir)
      await kubectlRaw(join(dataDir, 'kubeconfig'), ['delete', 'deployments,pods', '--all', '--grace-period=1', '--wait=true', '--timeout=60s']).catch(
        () => undefined,
      );
    await up?.stop();
    await removeNodeObjects(nodeName);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('a CPU burner: the pod page, kubectl top and the cgroup agree within 10 %, each over the window of its own figure', async (t) => {
    const cpu = new CpuReadings(cpuCounterOf(await containerPid(nodeName, 'burn')));
    try {
      await goTo('#/pod/default/burn');
      const figure = page.locator('[data-usage="cpu"]');
      const pageVsCgroup: Array<[number, number]> = [];
      const topVsCgroup: Array<[number, number]> = [];
      const pageVsTop: Array<[number, number]> = [];
      let seen: string | null = null;
      // Each refresh of the page (every 15 s) is a sample; kubectl top runs right after it, while
      // the server still serves the same figures, so the two are often of one window.
      await waitFor(
        "three refreshes of the page's figure, three of kubectl top, and one of both on the same figures",
        async () => {
          const timestamp = await figure.getAttribute('data-timestamp');
          if (!timestamp || timestamp === seen) return undefined;
          seen = timestamp;
          const shown = millicores((await figure.textContent())!);
          const windowMs = Number.parseFloat((await figure.getAttribute('data-window'))!) * 1000;
          const reading = await top('burn');
          // The readings must reach past the second after each timestamp.
          await new Promise((r) => setTimeout(r, 1200));
          const forPage = cpu.rateNear(Date.parse(timestamp), windowMs, shown);
          if (forPage !== undefined) pageVsCgroup.push([shown, forPage]);
          if (reading) {
            const forTop = cpu.rateNear(Date.parse(reading.timestamp), reading.windowMs, reading.cpu);
            if (forTop !== undefined) topVsCgroup.push([reading.cpu, forTop]);
            if (reading.timestamp === timestamp) pageVsTop.push([shown, reading.cpu]);
          }
          return pageVsCgroup.length >= 3 && topVsCgroup.length >= 3 && pageVsTop.length >= 1;
        },
        240_000,
      );
      const said = `page/cgroup ${JSON.stringify(pageVsCgroup)}, top/cgroup ${JSON.stringify(topVsCgroup)}, page/top ${JSON.stringify(pageVsTop)} (millicores)`;
      t.diagnostic(said);
      assert.ok(median(pageVsCgroup.map(([, truth]) => truth)) > 20, `the burner burns: ${said}`);
      assert.ok(median(pageVsCgroup.map(([shown, truth]) => off(shown, truth))) <= 0.1, `the page agrees with the cgroup: ${said}`);
      assert.ok(median(topVsCgroup.map(([shown, truth]) => off(shown, truth))) <= 0.1, `kubectl top agrees with the cgroup: ${said}`);
      assert.ok(median(pageVsTop.map(([shown, truth]) => off(shown, truth))) <= 0.1, `the page agrees with kubectl top: ${said}`);
      assert.match((await page.locator('section.usage').textContent())!, /request 100m · limit 200m/);
    } finally {
      cpu.stop();
    }
  });

  it('a pod holding 40 MiB: the pod page, the Workloads list, kubectl top and the cgroup agree within 10 %', async (t) => {
    const pod = await k(['get', 'pods', '-l', 'app=holder', '-o', 'jsonpath={.items[0].metadata.name}']);
    const pid = await containerPid(nodeName, pod);
    await waitFor('the 40 MiB written', async () => workingSetOf(pid) >= 40 * MiB, 60_000);
    await waitFor('kubectl top to see them', async () => ((await top(pod))?.memory ?? 0) >= 40 * MiB, 60_000);
    await goTo(`#/pod/default/${pod}`);
    const figure = page.locator('[data-usage="memory"]');
    await waitFor('the page to show them', async () => bytes((await figure.textContent()) ?? '') >= 40 * MiB, 45_000);
    const samples: Array<{ cgroup: number; page: number; top: number; list: number }> = [];
    for (let i = 0; i < 3; i++) {
      const reading = await waitFor('kubectl top of one scrape', () => top(pod), 30_000);
      await goTo(`#/pod/default/${pod}`);
      const shown = await waitFor("the page's figure", async () => bytes((await figure.textContent()) ?? '') || undefined, 30_000);
      await goTo('#/workloads');
      const cell = page.locator('table[aria-label="Deployments"] tr[data-name="holder"] td.memory');
      const listed = await waitFor(
        "the holder's memory in the Workloads list",
        async () => {
          const text = (await cell.textContent()) ?? '';
          return text.startsWith('—') ? undefined : text;
        },
        45_000,
      );
      assert.match(listed, / \/ 64Mi \/ 128Mi$/, 'its request and limit beside its usage');
      samples.push({ cgroup: workingSetOf(pid), page: shown, top: reading.memory, list: bytes(listed.split(' / ')[0]!) });
    }
    const said = JSON.stringify(samples.map((s) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, `${(v / MiB).toFixed(1)}Mi`]))));
    t.diagnostic(said);
    const truth = median(samples.map((s) => s.cgroup));
    assert.ok(truth >= 40 * MiB, said);
    for (const source of ['page', 'top', 'list'] as const) {
      assert.ok(off(median(samples.map((s) => s[source])), truth) <= 0.1, `${source} agrees with the cgroup: ${said}`);
    }
    await shot('workloads-usage');
  });

  it('the pod page charts CPU and memory over the last hour, with points, and the request and limit as lines', async () => {
    await goTo('#/pod/default/burn');
    const chart = page.locator('figure.chart[data-figure="cpu"]');
    await waitFor("two points in the pod's CPU chart", async () => Number(await chart.getAttribute('data-points')) >= 2, 90_000);
    const label = (await chart.locator('svg').getAttribute('aria-label'))!;
    assert.match(
      label,
      /^CPU of pod default\/burn over the last hour, \d+ samples every 15 s: now \d+m, lowest \d+m, highest \d+m; request 100m; limit 200m\.$/,
    );
    // The burner is held at its limit: the chart's latest point is near it, never far above.
    const now = millicores(/now (\d+m)/.exec(label)![1]!);
    assert.ok(now > 20 && now <= 200 * 1.1, label);
    assert.equal((await chart.locator('polyline.usage-line, circle.usage-dot').count()) > 0, true, 'the usage is drawn');
    assert.equal(await chart.locator('.limit-line').count(), 2, 'the request and the limit are lines');
    const memory = page.locator('figure.chart[data-figure="memory"]');
    assert.match((await memory.locator('svg').getAttribute('aria-label'))!, /^Memory of pod default\/burn over the last hour, \d+ samples/);
    assert.equal(await memory.locator('.limit-line').count(), 0, 'no memory request or limit: no line');
    await shot('pod-usage');
  });

  it("the overview shows the node's usage against its requests and allocatable, and charts its last hour", async () => {
    await goTo('#/overview');
    const row = page.locator(`tr[data-node="${nodeName}"] td`);
    await waitFor("the node's CPU usage", async () => /^\d+(\.\d+)?m?/.test((await row.nth(5).textContent()) ?? ''), 30_000);
    assert.match((await row.nth(8).textContent())!, /^\d+(\.\d+)?(Ki|Mi|Gi)/);
    const chart = page.locator('figure.chart[data-figure="cpu"]');
    await waitFor("two points in the node's CPU chart", async () => Number(await chart.getAttribute('data-points')) >= 2, 90_000);
    assert.match(
      (await chart.locator('svg').getAttribute('aria-label'))!,
      new RegExp(`^CPU of node ${nodeName} over the last hour, \\d+ samples every 15 s: .*; allocatable [\\d.]+( cores|m); request \\d+m\\.$`),
    );
    await shot('overview-usage');
  });

  it('usage is one list request per refresh, whatever the number of rows, never one per pod', async () => {
    await goTo('#/pods');
    await page.getByRole('list', { name: 'Pods' }).waitFor({ timeout: 15_000 });
    const from = Date.now();
    await new Promise((r) => setTimeout(r, 20_000));
    const made = metricsRequests.filter((r) => r.at >= from).map((r) => r.path);
    assert.ok(made.length >= 1 && made.length <= 3, `one request every 15 s: ${made.join(', ')}`);
    assert.deepEqual([...new Set(made)], ['/apis/metrics.k8s.io/v1beta1/pods']);
  });
});
