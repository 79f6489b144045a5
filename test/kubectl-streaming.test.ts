// kubectl logs, exec, cp, attach and port-forward against Drover, end to end: the real kubectl
// talks to an in-process API server, which proxies to the agent's streaming server, which runs
// the commands in real Docker containers.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startStreamingCluster, type StreamingCluster } from './support/agent/streaming-cluster.js';
import { KUBECTL, kubectlArgs, kubectlRaw, requireKubectl, type KubectlResult } from './support/kubectl.js';
import { waitFor } from './support/wait-for.js';

const APP_SCRIPT = [
  'echo started',
  'mkdir -p /www && echo hello-from-pod > /www/index.html && head -c 1000000 /dev/urandom > /www/big.bin',
  'httpd -f -p 8080 -h /www &',
  "trap 'echo got-usr1' USR1",
  'i=0; while true; do echo line $i; i=$((i+1)); sleep 1; done',
].join('\n');

interface Running {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

describe('kubectl streaming through the API server to the agent', { timeout: 120_000 }, () => {
  let cluster: StreamingCluster;
  let work: string;
  const running: Running[] = [];

  const run = (args: string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<KubectlResult> =>
    kubectlRaw(cluster.kubeconfig, args, options);

  /** A kubectl that keeps running (logs -f, attach, port-forward) until stopped. */
  function start(args: string[], env: Record<string, string> = {}): Running {
    const child = spawn(KUBECTL, kubectlArgs(cluster.kubeconfig, args), { env: { ...process.env, ...env } });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const handle = { child, output: () => output, stop: async () => void (child.exitCode === null && child.kill('SIGTERM'), await exited) };
    running.push(handle);
    return handle;
  }

  async function portForward(env: Record<string, string> = {}): Promise<{ port: number; pf: Running }> {
    const pf = start(['port-forward', 'pod/web', '0:8080'], env);
    const port = await waitFor(
      `port-forward to start: ${pf.output()}`,
      async () => Number(/Forwarding from 127\.0\.0\.1:(\d+)/.exec(pf.output())?.[1] ?? 0) || undefined,
      10_000,
    );
    return { port, pf };
  }

  before(
    async () => {
      requireKubectl();
      cluster = await startStreamingCluster();
      work = await mkdtemp(join(tmpdir(), 'drover-kubectl-streaming-'));
      await cluster.runPod('web', [
        { name: 'app', command: ['sh', '-c', APP_SCRIPT] },
        { name: 'side', command: ['sh', '-c', 'echo side-ready; sleep 3600'] },
      ]);
      await cluster.call('POST', '/api/v1/namespaces/default/pods', {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'unbound' },
        spec: { containers: [{ name: 'c', image: 'x' }] },
      });
      await waitFor('the app to log', async () => (await run(['logs', 'web', '-c', 'app'])).stdout.includes('line 1'), 15_000);
    },
    { timeout: 600_000 },
  );

  after(async () => {
    for (const r of running) await r.stop();
    await cluster?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('kubectl logs: -c, --tail, --timestamps, the default container and --previous', async () => {
    const all = await run(['logs', 'web', '-c', 'app']);
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stdout, /^started\nline 0\nline 1\n/);
    const tail = (await run(['logs', 'web', '-c', 'app', '--tail=2'])).stdout;
    assert.equal(tail.trimEnd().split('\n').length, 2);
    assert.match(tail, /^line \d+\nline \d+\n$/);
    const stamped = (await run(['logs', 'web', '-c', 'app', '--timestamps', '--tail=1'])).stdout;
    assert.match(stamped, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z line \d+\n$/);
    assert.equal((await run(['logs', 'web', '-c', 'side'])).stdout, 'side-ready\n');
    assert.equal((await run(['logs', 'web', '-c', 'app', '--limit-bytes=7'])).stdout, 'started');
    assert.match((await run(['logs', 'web', '-c', 'app', '--since=1h'])).stdout, /^started\n/);
    assert.equal((await run(['logs', 'web', '-c', 'app', '--since-time=2999-01-01T00:00:00Z'])).stdout, '');
    const defaulted = await run(['logs', 'web', '--tail=1']);
    assert.match(defaulted.stderr, /Defaulted container "app" out of: app, side/);
    const previous = await run(['logs', 'web', '-c', 'app', '--previous']);
    assert.notEqual(previous.code, 0);
    assert.match(previous.stderr, /previous terminated container "app" in pod "web" not found/);
  });

  it('kubectl logs -f follows new lines', async () => {
    const follow = start(['logs', '-f', 'web', '-c', 'app', '--tail=1']);
    const lines = await waitFor(
      'followed lines',
      async () => {
        const numbers = [...follow.output().matchAll(/line (\d+)/g)].map((m) => Number(m[1]));
        return numbers.length >= 3 ? numbers : undefined;
      },
      10_000,
    );
    assert.deepEqual(lines.slice(1, 3), [lines[0]! + 1, lines[0]! + 2]);
    await follow.stop();
  });

  it('kubectl exec reports stdout, stderr and the exit code', async () => {
    const result = await run(['exec', 'web', '-c', 'app', '--', 'sh', '-c', 'echo out; echo err >&2; exit 3']);
    assert.equal(result.code, 3);
    assert.equal(result.stdout, 'out\n');
    assert.match(result.stderr, /^err\n/);
    assert.match(result.stderr, /command terminated with exit code 3/);
    const piped = await run(['exec', '-i', 'web', '-c', 'app', '--', 'cat'], { input: 'through stdin\n' });
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(piped.stdout, 'through stdin\n');
  });

  it('kubectl cp copies a file into the pod and back, byte for byte', async () => {
    const original = randomBytes(256 * 1024);
    await writeFile(join(work, 'in.bin'), original);
    const into = await run(['cp', join(work, 'in.bin'), 'web:/tmp/copied.bin', '-c', 'app']);
    assert.equal(into.code, 0, into.stderr);
    const sum = await run(['exec', 'web', '-c', 'app', '--', 'md5sum', '/tmp/copied.bin']);
    assert.equal(sum.stdout.split(' ')[0], createHash('md5').update(original).digest('hex'));
    const back = await run(['cp', 'web:/tmp/copied.bin', join(work, 'out.bin'), '-c', 'app']);
    assert.equal(back.code, 0, back.stderr);
    assert.ok((await readFile(join(work, 'out.bin'))).equals(original));
  });

  it("kubectl port-forward reaches the pod's port (WebSocket tunnel)", async () => {
    const { port, pf } = await portForward();
    const bodies = await Promise.all([1, 2, 3].map(() => fetch(`http://127.0.0.1:${port}/`).then((r) => r.text())));
    assert.deepEqual(bodies, ['hello-from-pod\n', 'hello-from-pod\n', 'hello-from-pod\n']);
    const big = Buffer.from(await (await fetch(`http://127.0.0.1:${port}/big.bin`)).arrayBuffer());
    const sum = await run(['exec', 'web', '-c', 'app', '--', 'md5sum', '/www/big.bin']);
    assert.equal(createHash('md5').update(big).digest('hex'), sum.stdout.split(' ')[0]);
    await pf.stop();
  });

  it('falls back to SPDY when kubectl is told not to use WebSockets', async () => {
    const { port, pf } = await portForward({ KUBECTL_PORT_FORWARD_WEBSOCKETS: 'false' });
    assert.equal(await (await fetch(`http://127.0.0.1:${port}/`)).text(), 'hello-from-pod\n');
    await pf.stop();
    const result = await run(['exec', 'web', '-c', 'app', '--', 'sh', '-c', 'echo spdy; exit 4'], { env: { KUBECTL_REMOTE_COMMAND_WEBSOCKETS: 'false' } });
    assert.equal(result.code, 4);
    assert.equal(result.stdout, 'spdy\n');
  });

  it('negotiated what kubectl 1.32 asks for first, and its fallbacks', () => {
    const seen = new Set(cluster.sessions.map((s) => `${s.kind} ${s.transport} ${s.protocol}`));
    assert.ok(seen.has('exec websocket v5.channel.k8s.io'), [...seen].join('; '));
    assert.ok(seen.has('portForward websocket SPDY/3.1+portforward.k8s.io'), [...seen].join('; '));
    assert.ok(seen.has('portForward spdy SPDY/3.1 portforward.k8s.io'), [...seen].join('; '));
    assert.ok(seen.has('exec spdy SPDY/3.1 v5.channel.k8s.io'), [...seen].join('; '));
  });

  it("kubectl attach streams the main process's output", async () => {
    const attach = start(['attach', 'web', '-c', 'app']);
    await waitFor(`attached output: ${attach.output()}`, async () => /line \d+/.test(attach.output()), 10_000);
    await attach.stop();
    assert.ok(cluster.sessions.some((s) => s.kind === 'attach' && s.protocol === 'v5.channel.k8s.io'));
  });

  it('pods/signal delivers a signal to the container', async () => {
    const res = await cluster.call('POST', '/api/v1/namespaces/default/pods/web/signal?container=app&signal=SIGUSR1');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await waitFor('the trap to run', async () => (await run(['logs', 'web', '-c', 'app'])).stdout.includes('got-usr1'), 10_000);
  });

  it('explains what cannot be streamed', async () => {
    const unbound = await run(['exec', 'unbound', '--', 'true']);
    assert.notEqual(unbound.code, 0);
    assert.match(unbound.stderr, /pod unbound does not have a host assigned/);
    const noContainer = await run(['exec', 'web', '-c', 'nope', '--', 'true']);
    assert.match(noContainer.stderr, /container nope is not valid for pod web/);
    const missing = await run(['logs', 'ghost']);
    assert.match(missing.stderr, /pods "ghost" not found/);
  });
});
