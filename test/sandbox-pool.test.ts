// The sandbox pool on real Docker, driven by the real kubectl against a `drover server` and a
// `drover agent` process: a pod claims a sandbox made ahead of it and is still itself (hostname,
// /etc/hostname and /etc/hosts are its name, its containers share one IP, a restarted container
// keeps it, logs, exec, port-forward and probes work); hostPort and hostNetwork pods make their
// own; the pool refills after claims and replaces a member removed behind its back; a claimed
// sandbox that dies is replaced as any pod sandbox is; and neither a restart nor a kill -9 of
// the agent leaks a pool sandbox or loses a claimed pod.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startAgentProcess, type AgentProcess } from './support/agent-process.js';
import { freePort } from './support/free-port.js';
import { KUBECTL, kubectl, kubectlArgs, requireKubectl } from './support/kubectl.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { waitFor } from './support/wait-for.js';
import { removeNodeObjects } from './support/agent/agent-cluster.js';

const run = promisify(execFile);
const NODE = `pool-${randomUUID().slice(0, 6)}`;
const POOL_FLAGS = ['--sandbox-pool-min', '3', '--sandbox-pool-max', '6'];
const IMAGE = 'drover-test/busybox:1';
const POOL_LABEL = 'drover.dev/sandbox-pool';

interface PodView {
  metadata: { name: string; uid: string };
  status: {
    phase?: string;
    podIP?: string;
    conditions?: Array<{ type: string; status: string }>;
    containerStatuses?: Array<{ name: string; restartCount: number; containerID?: string; ready: boolean }>;
  };
}

interface Inspected {
  Id: string;
  State: { Running: boolean; Status: string };
  Config: { Labels: Record<string, string> };
  HostConfig: { NetworkMode: string };
}

async function inspect(id: string): Promise<Inspected> {
  const { stdout } = await run('docker', ['inspect', id]);
  return (JSON.parse(stdout) as Inspected[])[0]!;
}

function podManifest(name: string, containers: object[], extra: object = {}): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { nodeName: NODE, terminationGracePeriodSeconds: 1, containers, ...extra },
  });
}

const sleeper = (name: string, extra: object = {}) => ({ name, image: IMAGE, command: ['sleep', '3600'], ...extra });
const isReady = (pod: PodView) => pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

describe('sandbox pool', { timeout: 300_000 }, () => {
  let server: ServerProcess;
  let agent: AgentProcess;
  const k = (args: string[], input?: string) => kubectl(server.kubeconfig, args, input === undefined ? { timeoutMs: 60_000 } : { input, timeoutMs: 60_000 });
  const getPod = async (name: string): Promise<PodView> => JSON.parse(await k(['get', 'pod', name, '-o', 'json']));
  const exec = async (pod: string, container: string, cmd: string[]) => (await k(['exec', pod, '-c', container, '--', ...cmd])).trim();
  const readyPod = (name: string) =>
    waitFor(
      `${name} ready`,
      async () => {
        const pod = await getPod(name);
        return isReady(pod) ? pod : undefined;
      },
      90_000,
    );
  const containerId = (pod: PodView, name: string) =>
    (pod.status.containerStatuses?.find((c) => c.name === name)?.containerID ?? '').replace(/^docker:\/\//, '');
  /** The sandbox a pod's container joined. */
  const sandboxOf = async (pod: PodView, container: string) => inspect((await inspect(containerId(pod, container))).Config.Labels['drover.dev/sandbox-id']!);
  const claimed = async () => new Set((await readdir(join(agent.dataDir, 'docker', 'sandbox-claims')).catch(() => [])).map((f) => f.replace(/\.json$/, '')));
  /** The node's pool sandboxes, as Docker has them. */
  const poolSandboxes = async () => {
    const { stdout } = await run('docker', [
      'ps',
      '-a',
      '--no-trunc',
      '--filter',
      `label=drover.dev/node=${NODE}`,
      '--filter',
      `label=${POOL_LABEL}`,
      '--format',
      '{{.ID}} {{.State}}',
    ]);
    const claims = await claimed();
    return stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [id, state] = line.split(' ');
        return { id: id!, running: state === 'running', claimed: claims.has(id!) };
      });
  };
  const readyMembers = async () => (await poolSandboxes()).filter((s) => s.running && !s.claimed);
  const poolHolds = (n: number) =>
    waitFor(
      `${n} ready pool sandboxes`,
      async () => {
        const members = await readyMembers();
        return members.length >= n ? members : undefined;
      },
      60_000,
    );

  before(async () => {
    requireKubectl();
    server = await startServerProcess();
    agent = await startAgentProcess(server, NODE, POOL_FLAGS);
  });

  after(async () => {
    await k(['delete', 'pods', '--all', '--wait=false']).catch(() => undefined);
    await agent?.stop();
    await server?.stop();
    await removeNodeObjects(NODE);
    await server?.cleanup();
  });

  it('a pod claims a pooled sandbox and is still itself: hostname, /etc/hostname and /etc/hosts are its name, as for a pod that made its own', async () => {
    await poolHolds(3);
    const port = await freePort();
    const shared = { name: 'shared', mountPath: '/shared' };
    await k(
      ['apply', '-f', '-'],
      podManifest('pooled', [sleeper('main', { volumeMounts: [shared] }), sleeper('side')], {
        initContainers: [{ name: 'init', image: IMAGE, command: ['sh', '-c', 'hostname > /shared/init-hostname'], volumeMounts: [shared] }],
        volumes: [{ name: 'shared', emptyDir: {} }],
      }),
    );
    // The same pod with a hostPort: it makes its own sandbox, the way every pod did before the pool.
    await k(['apply', '-f', '-'], podManifest('own-sandbox', [sleeper('main', { ports: [{ containerPort: 8080, hostPort: port }] })]));
    const pooled = await readyPod('pooled');
    const own = await readyPod('own-sandbox');

    const sandbox = await sandboxOf(pooled, 'main');
    assert.ok(POOL_LABEL in sandbox.Config.Labels, 'the pod runs in a pool sandbox');
    assert.ok(!(POOL_LABEL in (await sandboxOf(own, 'main')).Config.Labels), 'the hostPort pod made its own');
    assert.ok((await claimed()).has(sandbox.Id), 'the claim is on disk');
    assert.equal((await sandboxOf(pooled, 'side')).Id, sandbox.Id, 'both containers joined it');

    for (const container of ['main', 'side']) {
      assert.equal(await exec('pooled', container, ['hostname']), 'pooled');
      assert.equal(await exec('pooled', container, ['cat', '/etc/hostname']), 'pooled');
    }
    assert.equal(await exec('pooled', 'main', ['cat', '/shared/init-hostname']), 'pooled', 'the init container ran under the pod name');
    assert.equal(await exec('own-sandbox', 'main', ['hostname']), 'own-sandbox');
    // /etc/hosts as Docker writes it for a sandbox made for the pod: the same lines, the pod's own address and name last.
    const hosts = await exec('pooled', 'main', ['cat', '/etc/hosts']);
    const ownHosts = await exec('own-sandbox', 'main', ['cat', '/etc/hosts']);
    assert.match(hosts, new RegExp(`^${pooled.status.podIP!.replace(/\./g, '\\.')}\\s+pooled$`, 'm'));
    assert.equal(
      hosts.replace(pooled.status.podIP!, 'IP').replace(/pooled/g, 'NAME'),
      ownHosts.replace(own.status.podIP!, 'IP').replace(/own-sandbox/g, 'NAME'),
    );
    // One network namespace: the pod IP is each container's address.
    for (const container of ['main', 'side'])
      assert.match(await exec('pooled', container, ['ip', '-4', 'addr']), new RegExp(`inet ${pooled.status.podIP!.replace(/\./g, '\\.')}/`));
    // The command runs as PID 1 under its own name once the shim is done.
    assert.match(await exec('pooled', 'main', ['cat', '/proc/1/cmdline']), /^sleep\x003600/);
    await k(['delete', 'pod', 'own-sandbox', '--wait=true']);
  });

  it('the pool refills after claims, up to the recent burst', async () => {
    const before = (await readyMembers()).length;
    await k(['apply', '-f', '-'], podManifest('burst-a', [sleeper('main')]));
    await k(['apply', '-f', '-'], podManifest('burst-b', [sleeper('main')]));
    await readyPod('burst-a');
    await readyPod('burst-b');
    await poolHolds(Math.max(3, before));
    await k(['delete', 'pod', 'burst-a', 'burst-b', '--wait=true']);
  });

  it('logs, exec and an exec readiness probe work, and a restarted container keeps the pod IP and gets its hostname again', async () => {
    await poolHolds(1);
    await k(
      ['apply', '-f', '-'],
      podManifest('restarts', [
        {
          name: 'main',
          image: IMAGE,
          command: ['sh', '-c', 'echo "hostname=$(hostname)"; sleep 5; exit 3'],
          readinessProbe: { exec: { command: ['cat', '/etc/hostname'] }, periodSeconds: 1 },
        },
        sleeper('steady'),
      ]),
    );
    const first = await readyPod('restarts');
    assert.ok(POOL_LABEL in (await sandboxOf(first, 'steady')).Config.Labels);
    const ip = first.status.podIP;
    const restarted = await waitFor(
      'main restarted',
      async () => {
        const pod = await getPod('restarts');
        return (pod.status.containerStatuses?.find((c) => c.name === 'main')?.restartCount ?? 0) >= 1 ? pod : undefined;
      },
      90_000,
    );
    assert.equal(restarted.status.podIP, ip, 'the pod IP stays');
    assert.match(await k(['logs', 'restarts', '-c', 'main', '--previous']), /hostname=restarts/);
    await waitFor('the new instance logged', async () => (/hostname=restarts/.test(await k(['logs', 'restarts', '-c', 'main'])) ? true : undefined), 30_000);
    assert.equal(await exec('restarts', 'steady', ['hostname']), 'restarts');
    await k(['delete', 'pod', 'restarts', '--wait=true']);
  });

  it("kubectl port-forward reaches a port of a pod in a pooled sandbox (through the sandbox's network)", async () => {
    await poolHolds(1);
    const script = 'mkdir -p /www && echo "hello from $(hostname)" > /www/index.html && exec httpd -f -p 8080 -h /www';
    await k(['apply', '-f', '-'], podManifest('web', [{ name: 'main', image: IMAGE, command: ['sh', '-c', script] }]));
    const pod = await readyPod('web');
    assert.ok(POOL_LABEL in (await sandboxOf(pod, 'main')).Config.Labels);
    const pf = spawn(KUBECTL, kubectlArgs(server.kubeconfig, ['port-forward', 'pod/web', '0:8080']));
    let output = '';
    pf.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    pf.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      const port = await waitFor('port-forward to start', async () => Number(/Forwarding from 127\.0\.0\.1:(\d+)/.exec(output)?.[1] ?? 0) || undefined, 20_000);
      const body = await waitFor(
        'an answer through the tunnel',
        async () =>
          fetch(`http://127.0.0.1:${port}/`).then(
            (r) => r.text(),
            () => undefined,
          ),
        20_000,
      );
      assert.equal(body, 'hello from web\n');
    } finally {
      pf.kill('SIGTERM');
    }
    await k(['delete', 'pod', 'web', '--wait=true']);
  });

  it('a hostNetwork pod makes its own sandbox on the node network', async () => {
    await k(['apply', '-f', '-'], podManifest('host-net', [sleeper('main')], { hostNetwork: true }));
    const pod = await readyPod('host-net');
    const sandbox = await sandboxOf(pod, 'main');
    assert.ok(!(POOL_LABEL in sandbox.Config.Labels));
    assert.equal(sandbox.HostConfig.NetworkMode, 'host');
    await k(['delete', 'pod', 'host-net', '--wait=true']);
  });

  it('a pool sandbox removed behind the agent is replaced', async () => {
    const members = await poolHolds(3);
    const victim = members[0]!.id;
    await run('docker', ['rm', '-f', victim]);
    await waitFor(
      'another made in its place',
      async () => {
        const now = await readyMembers();
        const made = now.filter((m) => !members.some((old) => old.id === m.id));
        return now.length >= members.length && made.length > 0 && !now.some((m) => m.id === victim) ? true : undefined;
      },
      60_000,
    );
  });

  it("a claimed sandbox that dies is replaced as any pod's: the containers start again under the pod's name", async () => {
    await poolHolds(2);
    await k(['apply', '-f', '-'], podManifest('sandbox-dies', [sleeper('main')]));
    const pod = await readyPod('sandbox-dies');
    const sandbox = await sandboxOf(pod, 'main');
    await run('docker', ['kill', sandbox.Id]);
    const again = await waitFor(
      'running in another sandbox',
      async () => {
        const now = await getPod('sandbox-dies');
        if (!isReady(now) || containerId(now, 'main') === containerId(pod, 'main')) return undefined;
        return now;
      },
      90_000,
    );
    assert.notEqual((await sandboxOf(again, 'main')).Id, sandbox.Id);
    assert.equal(await exec('sandbox-dies', 'main', ['hostname']), 'sandbox-dies');
    await waitFor('the dead sandbox removed, its claim with it', async () => ((await claimed()).has(sandbox.Id) ? undefined : true), 30_000);
    await k(['delete', 'pod', 'sandbox-dies', '--wait=true']);
  });

  it('a stopped agent leaves no unclaimed pool sandbox; the claimed pod keeps running and the next agent adopts it', async () => {
    await poolHolds(3);
    const pooled = await getPod('pooled');
    const mainId = containerId(pooled, 'main');
    const exited = new Promise((resolve) => agent.child.once('exit', resolve));
    agent.child.kill('SIGTERM');
    await exited;
    const left = await poolSandboxes();
    assert.deepEqual(
      left.filter((s) => !s.claimed),
      [],
      'unclaimed pool sandboxes removed on shutdown',
    );
    assert.ok(
      left.some((s) => s.claimed && s.running),
      "the pod's claimed sandbox runs on",
    );
    agent = await startAgentProcess(server, NODE, POOL_FLAGS, server.url, { dataDir: agent.dataDir });
    await poolHolds(3);
    const adopted = await readyPod('pooled');
    assert.equal(containerId(adopted, 'main'), mainId, 'the same container, adopted');
    assert.equal(adopted.status.podIP, pooled.status.podIP);
    assert.equal(await exec('pooled', 'main', ['hostname']), 'pooled');
  });

  it('after a kill -9 the next agent removes the stale pool sandboxes, keeps the claimed pod, and removes the claimed sandbox of a pod deleted meanwhile', async () => {
    await poolHolds(1);
    await k(['apply', '-f', '-'], podManifest('orphan', [sleeper('main')]));
    const orphanSandbox = await sandboxOf(await readyPod('orphan'), 'main');
    assert.ok(POOL_LABEL in orphanSandbox.Config.Labels);
    const stale = (await poolHolds(3)).map((m) => m.id);
    const pooled = await getPod('pooled');
    const sandbox = await sandboxOf(pooled, 'main');
    await agent.kill();
    // Gone from the API while no agent runs: only the runtime still knows the pod.
    await k(['delete', 'pod', 'orphan', '--force', '--grace-period=0']);
    agent = await startAgentProcess(server, NODE, POOL_FLAGS, server.url, { dataDir: agent.dataDir });
    await waitFor(
      'the stale pool sandboxes removed',
      async () => {
        const ids = new Set((await poolSandboxes()).map((s) => s.id));
        return stale.every((id) => !ids.has(id)) ? true : undefined;
      },
      60_000,
    );
    await waitFor(
      "the deleted pod's claimed sandbox removed by the orphan clean-up",
      async () => {
        const ids = new Set((await poolSandboxes()).map((s) => s.id));
        return !ids.has(orphanSandbox.Id) && !(await claimed()).has(orphanSandbox.Id) ? true : undefined;
      },
      90_000,
    );
    await poolHolds(3);
    const adopted = await readyPod('pooled');
    assert.equal(containerId(adopted, 'main'), containerId(pooled, 'main'));
    assert.equal((await sandboxOf(adopted, 'main')).Id, sandbox.Id);
    await k(['delete', 'pod', 'pooled', '--wait=true']);
    await waitFor(
      'the claimed sandbox removed with its pod',
      async () => {
        const ids = new Set((await poolSandboxes()).map((s) => s.id));
        return !ids.has(sandbox.Id) && !(await claimed()).has(sandbox.Id) ? true : undefined;
      },
      60_000,
    );
    // A clean stop now leaves nothing of the pool behind.
    const exited = new Promise((resolve) => agent.child.once('exit', resolve));
    agent.child.kill('SIGTERM');
    await exited;
    assert.deepEqual(await poolSandboxes(), []);
    agent = await startAgentProcess(server, NODE, POOL_FLAGS, server.url, { dataDir: agent.dataDir });
  });
});
