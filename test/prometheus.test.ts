// A real Prometheus (Debian's) scraping a real `drover up` with the configuration
// `drover up --print-prometheus-config` prints: it discovers the API server and the agent through
// the Kubernetes API, every target is up, and PromQL finds the series Kubernetes users query.
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { get as httpsGet } from 'node:https';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { freePort } from './support/free-port.js';
import { waitFor } from './support/wait-for.js';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { DROVER_BIN } from './support/server-process.js';
import { startUpProcess, type UpProcess } from './support/up-process.js';
import { ensureDocker, runRepoScript } from './support/repo.js';
import { removeNodeObjects } from './support/agent/agent-cluster.js';

const run = promisify(execFile);

interface Target {
  labels: Record<string, string>;
  health: string;
  lastError: string;
  scrapeUrl: string;
}
interface QueryResult {
  metric: Record<string, string>;
  value: [number, string];
}

describe('Prometheus scrapes the cluster', { timeout: 240_000 }, () => {
  let cluster: UpProcess;
  let prometheus: ChildProcess | undefined;
  let prometheusOutput = '';
  let workDir = '';
  let prometheusUrl = '';
  const k = (args: string[]) => kubectl(cluster.kubeconfig, args, { timeoutMs: 120_000 });
  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${prometheusUrl}${path}`);
    const body = (await res.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`${path}: ${body.error}`);
    return body.data;
  };
  const query = async (promql: string) => (await api<{ result: QueryResult[] }>(`/api/v1/query?query=${encodeURIComponent(promql)}`)).result;

  before(async () => {
    requireKubectl();
    ensureDocker();
    runRepoScript('ensure-prometheus.sh', 'this test scrapes with a real Prometheus');
    cluster = await startUpProcess(`prom-${process.pid}`);
    workDir = await mkdtemp(join(tmpdir(), 'drover-prometheus-'));
  });

  after(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((done) => prometheus!.once('exit', done));
      prometheus.kill('SIGTERM');
      await exited;
    }
    if (workDir) await rm(workDir, { recursive: true, force: true });
    if (!cluster) return;
    await kubectlRaw(cluster.kubeconfig, ['delete', 'pods', '--all', '--grace-period=1', '--wait=true', '--timeout=60s']);
    await cluster.stop();
    await removeNodeObjects(cluster.nodeName);
  });

  it("prints a configuration whose certificate is Prometheus's own and owner-only", async () => {
    const { stdout } = await run(DROVER_BIN, ['up', '--data-dir', cluster.dataDir, '--print-prometheus-config']);
    const config = parse(stdout) as { scrape_configs: Array<{ job_name: string; tls_config: { cert_file: string; key_file: string; ca_file: string } }> };
    assert.deepEqual(
      config.scrape_configs.map((job) => job.job_name),
      ['drover-apiserver', 'drover-agents'],
    );
    const tls = config.scrape_configs[0]!.tls_config;
    assert.equal((await stat(tls.key_file)).mode & 0o077, 0, "the key is its owner's only");
    const { subject } = new X509Certificate(await readFile(tls.cert_file));
    assert.match(subject, /O=system:monitoring/);
    assert.match(subject, /CN=system:drover-prometheus/);
    // Scraped every 2 s here, so the test need not wait for the default 15 s.
    const fast = config as unknown as { global: object; scrape_configs: Array<{ http_sd_configs: Array<{ refresh_interval: string }> }> };
    fast.global = { scrape_interval: '2s', evaluation_interval: '2s' };
    for (const job of fast.scrape_configs) for (const sd of job.http_sd_configs) sd.refresh_interval = '2s';
    await writeFile(join(workDir, 'prometheus.yml'), stringify(fast));
  });

  it('finds the API server and the agent and scrapes them all', async () => {
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      'prometheus',
      [`--config.file=${join(workDir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(workDir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    prometheus.stdout!.on('data', (c: Buffer) => (prometheusOutput += c.toString()));
    prometheus.stderr!.on('data', (c: Buffer) => (prometheusOutput += c.toString()));
    await waitFor('Prometheus ready', async () => (await fetch(`${prometheusUrl}/-/ready`).catch(() => undefined))?.ok, 30_000);
    const targets = await waitFor(
      'both jobs discovered and every target up',
      async () => {
        const { activeTargets } = await api<{ activeTargets: Target[] }>('/api/v1/targets?state=active');
        const jobs = new Set(activeTargets.map((t) => t.labels['job']));
        return jobs.has('drover-apiserver') && jobs.has('drover-agents') && activeTargets.every((t) => t.health === 'up') ? activeTargets : undefined;
      },
      90_000,
    ).catch(async (error: Error) => {
      const seen = await api<{ activeTargets: Target[] }>('/api/v1/targets').catch(() => undefined);
      throw new Error(`${error.message}\ntargets: ${JSON.stringify(seen)}\nprometheus:\n${prometheusOutput.slice(-3000)}`);
    });
    const agent = targets.find((t) => t.labels['job'] === 'drover-agents')!;
    assert.equal(agent.labels['node'], cluster.nodeName);
  });

  it('answers PromQL with the series Kubernetes users query', async () => {
    await k(['run', 'scraped', '--image=drover-test/busybox:1', '--restart=Never', '--', 'sleep', '3600']);
    await waitFor('the pod Running', async () => (await k(['get', 'pod', 'scraped', '-o', 'jsonpath={.status.phase}'])) === 'Running', 90_000);
    const requests = await waitFor(
      'apiserver_request_total for pod creates',
      async () => {
        const result = await query('sum(apiserver_request_total{job="drover-apiserver",verb="POST",resource="pods"})');
        return result.length && Number(result[0]!.value[1]) >= 1 ? result : undefined;
      },
      60_000,
    );
    assert.ok(Number(requests[0]!.value[1]) >= 1);
    await waitFor(
      'scheduler_schedule_attempts_total scheduled',
      async () => {
        const result = await query('scheduler_schedule_attempts_total{result="scheduled"}');
        return result.length && Number(result[0]!.value[1]) >= 1;
      },
      60_000,
    );
    await waitFor('a latency histogram', async () => (await query('apiserver_request_duration_seconds_count')).length > 0, 60_000);
    await waitFor('scheduler_pod_scheduling_duration_seconds', async () => (await query('scheduler_pod_scheduling_duration_seconds_count')).length > 0, 60_000);
    // The agent's cAdvisor-named series for the pod, and the kubelet's count of running pods.
    const memory = await waitFor(
      'container_memory_working_set_bytes of the pod',
      async () => {
        const result = await query('container_memory_working_set_bytes{job="drover-agents",namespace="default",pod="scraped"}');
        return result.length ? result : undefined;
      },
      60_000,
    );
    assert.ok(Number(memory[0]!.value[1]) > 0);
    await waitFor(
      'container_cpu_usage_seconds_total of the pod',
      async () => (await query('container_cpu_usage_seconds_total{pod="scraped"}')).length > 0,
      60_000,
    );
    await waitFor(
      'kube_pod_container_status_restarts_total of the pod',
      async () => (await query('kube_pod_container_status_restarts_total{pod="scraped",container="scraped"}')).length > 0,
      60_000,
    );
    await waitFor(
      'kubelet_pod_start_duration_seconds',
      async () => {
        const result = await query(`kubelet_pod_start_duration_seconds_count{node="${cluster.nodeName}"}`);
        return result.length > 0 && Number(result[0]!.value[1]) >= 1;
      },
      60_000,
    );
    await waitFor(
      'kubelet_running_pods',
      async () => {
        const result = await query(`kubelet_running_pods{node="${cluster.nodeName}"}`);
        return result.length > 0 && Number(result[0]!.value[1]) >= 1;
      },
      60_000,
    );
  });

  it('keeps what Prometheus may do on an agent to reading metrics', async () => {
    const config = parse(await readFile(join(workDir, 'prometheus.yml'), 'utf8')) as {
      scrape_configs: Array<{ tls_config: { cert_file: string; key_file: string; ca_file: string } }>;
    };
    const tls = config.scrape_configs[1]!.tls_config;
    const node = JSON.parse(await k(['get', 'node', cluster.nodeName, '-o', 'json'])) as { status: { daemonEndpoints: { kubeletEndpoint: { Port: number } } } };
    const base = `https://127.0.0.1:${node.status.daemonEndpoints.kubeletEndpoint.Port}`;
    const [ca, cert, key] = await Promise.all([tls.ca_file, tls.cert_file, tls.key_file].map((file) => readFile(file)));
    const statusOf = (path: string) =>
      new Promise<number>((done, fail) => {
        httpsGet(`${base}${path}`, { ca, cert, key }, (res) => {
          res.resume();
          done(res.statusCode ?? 0);
        }).on('error', fail);
      });
    assert.equal(await statusOf('/metrics'), 200);
    assert.equal(await statusOf('/containerLogs/default/scraped/scraped'), 403, "logs are not a metrics reader's");
  });
});
