// Faults the agent must survive: SIGKILL and restart (the same containers keep running and are
// adopted, restart counts are kept, a pod deleted meanwhile is finished, containers of a pod
// that no longer exists are removed), the Docker daemon's socket going away and coming back (the
// node says Ready=False, pod status is left alone, and nothing is duplicated afterwards), and a
// real daemon restart, which takes the pod's containers down with it (the pod is started over
// in a new sandbox, once, and `logs --previous` still reads the container that died).
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Docker from 'dockerode';
import { resources } from '../src/client/index.js';
import { NODE_LABEL, startAgent } from '../src/agent/index.js';
import { POD_UID } from '../src/agent/runtime/labels.js';
import { DockerProxy } from './support/agent/docker-proxy.js';
import {
  containerIdOf,
  deleteAllPods,
  ensureDocker,
  podSpec,
  startTestCluster,
  waitForPod,
  waitForPodGone,
  type TestCluster,
} from './support/agent/agent-cluster.js';
import { startScratchDockerd, type ScratchDockerd } from './support/scratch-dockerd.js';
import { waitFor } from './support/wait-for.js';
import type { Pod } from '../src/api/core/index.js';

const STANDALONE = resolve(import.meta.dirname, 'support/agent/standalone-agent.js');
/** The scratch daemon's pod network: its own range, no other daemon's network on it. */
const SCRATCH_POD_CIDR = '10.232.0.0/16';
/** The node's range in it (spec.podCIDR). */
const SCRATCH_NODE_RANGE = '10.232.7.0/24';

function spawnAgent(cluster: TestCluster): Promise<ChildProcess> {
  const options = { kubeconfig: cluster.kubeconfig, nodeName: cluster.nodeName, dataDir: join(cluster.dir, 'agent'), serviceProxy: false };
  const child = spawn(process.execPath, [STANDALONE, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`agent did not start:\n${output}`)), 20_000);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('agent ready')) {
        clearTimeout(timer);
        done(child);
      }
    });
    child.once('exit', (code) => fail(new Error(`agent exited with ${code}:\n${output}`)));
  });
}

async function killHard(child: ChildProcess): Promise<void> {
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGKILL');
  await exited;
}

async function podObjects(nodeName: string, uid: string, docker = new Docker()): Promise<Docker.ContainerInfo[]> {
  return docker.listContainers({ all: true, filters: { label: [`${NODE_LABEL}=${nodeName}`, `drover.dev/pod-uid=${uid}`] } });
}

type Condition = { type: string; status: string; reason?: string; message?: string };

/** Waits until the node's Ready condition has `status`; resolves that condition. */
function nodeReadyBecomes(cluster: TestCluster, status: 'True' | 'False'): Promise<Condition> {
  const nodes = cluster.api.resource(resources.nodes);
  return waitFor(
    `node Ready=${status}`,
    async () => {
      const conditions = ((await nodes.get(cluster.nodeName))['status'] as { conditions?: Condition[] }).conditions;
      const ready = conditions?.find((c) => c.type === 'Ready');
      return ready?.status === status ? ready : undefined;
    },
    20_000,
  );
}

function status(pod: Pod, name = 'main') {
  return pod.status?.containerStatuses?.find((s) => s.name === name);
}

describe('agent killed with SIGKILL and restarted', () => {
  let cluster: TestCluster;
  let child: ChildProcess | undefined;

  before(async () => {
    ensureDocker();
    cluster = await startTestCluster('agent-kill');
    child = await spawnAgent(cluster);
  });

  after(async () => {
    if (child && child.exitCode === null) child.kill('SIGTERM');
    await cluster?.close();
  });

  test('adopts its containers, keeps restart counts, finishes deletions and removes orphans', async () => {
    await cluster.pods.create(podSpec('steady', cluster.nodeName, [{ name: 'main', command: ['sleep', '3600'] }]));
    await cluster.pods.create(podSpec('crashy', cluster.nodeName, [{ name: 'main', command: ['sh', '-c', 'exit 1'] }]));
    await cluster.pods.create(podSpec('doomed', cluster.nodeName, [{ name: 'main', command: ['sleep', '3600'] }]));
    await cluster.pods.create(podSpec('orphan', cluster.nodeName, [{ name: 'main', command: ['sleep', '3600'] }]));
    const steady = await waitForPod(cluster, 'steady', 'Running', (p) => p.status?.phase === 'Running');
    const crashy = await waitForPod(cluster, 'crashy', 'restarted', (p) => (status(p)?.restartCount ?? 0) >= 1);
    await waitForPod(cluster, 'doomed', 'Running', (p) => p.status?.phase === 'Running');
    const orphan = await waitForPod(cluster, 'orphan', 'Running', (p) => p.status?.phase === 'Running');

    await killHard(child!);
    await cluster.pods.delete('doomed');
    await cluster.pods.delete('orphan', { gracePeriodSeconds: 0 });
    child = await spawnAgent(cluster);

    await waitForPodGone(cluster, 'doomed');
    await waitFor('the orphan removed', async () => ((await podObjects(cluster.nodeName, orphan.metadata.uid!)).length === 0 ? true : undefined), 20_000);
    const after = await cluster.pods.get('steady');
    assert.equal(containerIdOf(after, 'main'), containerIdOf(steady, 'main'), 'same container adopted');
    assert.equal(status(after)?.restartCount, 0);
    const objects = await podObjects(cluster.nodeName, steady.metadata.uid!);
    assert.equal(objects.length, 2, `one sandbox and one container: ${objects.map((o) => o.Names[0]).join(', ')}`);
    assert.ok(objects.every((o) => o.State === 'running'));
    const crashyAfter = await waitForPod(
      cluster,
      'crashy',
      'status rewritten by the new agent',
      (p) => (status(p)?.restartCount ?? 0) >= (status(crashy)?.restartCount ?? 0),
    );
    assert.ok((status(crashyAfter)?.restartCount ?? 0) >= 1, 'restart count recovered from the attempt label');
    await deleteAllPods(cluster);
  });
});

describe('Docker daemon going away and coming back', () => {
  let cluster: TestCluster;
  let proxy: DockerProxy;
  let agent: Awaited<ReturnType<typeof startAgent>> | undefined;

  before(async () => {
    ensureDocker();
    cluster = await startTestCluster('agent-docker-down');
    proxy = new DockerProxy(join(cluster.dir, 'docker.sock'));
    await proxy.up();
    agent = await startAgent({
      kubeconfig: cluster.kubeconfig,
      nodeName: cluster.nodeName,
      dataDir: join(cluster.dir, 'agent'),
      dockerSocket: proxy.path,
      serviceProxy: false,
    });
  });

  after(async () => {
    await proxy?.up().catch(() => undefined);
    if (cluster && agent) await deleteAllPods(cluster).catch(() => undefined);
    await agent?.close();
    await proxy?.down();
    await cluster?.close();
  });

  test('Ready=False while Docker is away; the pod is left alone and not duplicated', async () => {
    await cluster.pods.create(podSpec('survivor', cluster.nodeName, [{ name: 'main', command: ['sleep', '3600'] }]));
    const before = await waitForPod(cluster, 'survivor', 'Running', (p) => p.status?.phase === 'Running');

    await proxy.down();
    const down = await nodeReadyBecomes(cluster, 'False');
    assert.equal(down.reason, 'ContainerRuntimeUnhealthy');
    assert.match(down.message ?? '', /container runtime is down/);
    await new Promise((r) => setTimeout(r, 2000));
    const during = await cluster.pods.get('survivor');
    assert.deepEqual(during.status?.containerStatuses, before.status?.containerStatuses, 'status not rewritten while blind');

    await proxy.up();
    await nodeReadyBecomes(cluster, 'True');
    await new Promise((r) => setTimeout(r, 1500));
    const afterwards = await waitForPod(cluster, 'survivor', 'Running', (p) => p.status?.phase === 'Running');
    assert.equal(containerIdOf(afterwards, 'main'), containerIdOf(before, 'main'));
    assert.equal((await podObjects(cluster.nodeName, before.metadata.uid!)).length, 2);
  });
});

describe('Docker daemon restarted', () => {
  let cluster: TestCluster;
  let daemon: ScratchDockerd;
  let agent: Awaited<ReturnType<typeof startAgent>> | undefined;

  before(async () => {
    ensureDocker();
    cluster = await startTestCluster('agent-docker-restart');
    // A daemon of this test's own: restarting the machine's would stop every other test's containers.
    daemon = await startScratchDockerd(join(cluster.dir, 'dockerd'), 'drover-rst0', '10.231.7', ['drover-test/busybox:1', 'drover/pause:1']);
    // Its pod network on a range of its own too, apart from the machine's daemon's.
    agent = await startAgent({
      kubeconfig: cluster.kubeconfig,
      nodeName: cluster.nodeName,
      dataDir: join(cluster.dir, 'agent'),
      dockerSocket: daemon.socket,
      serviceProxy: false,
      network: { podCidr: SCRATCH_POD_CIDR },
    });
    // This server runs no node IPAM: the node gets its range as the IPAM would give it, and with
    // it the pool (which waits for the range) fills.
    await cluster.api.resource(resources.nodes).patch(cluster.nodeName, 'merge', { spec: { podCIDR: SCRATCH_NODE_RANGE, podCIDRs: [SCRATCH_NODE_RANGE] } });
  });

  /** The pool's unclaimed sandboxes on the scratch daemon, in whatever state. */
  const poolMembers = () => agent!.runtimes.primary.sandboxPool!.list({ labels: { [NODE_LABEL]: cluster.nodeName } });
  const poolHolds = (n: number) =>
    waitFor(
      `${n} running pool sandboxes`,
      async () => {
        const members = await poolMembers();
        return members.length >= n && members.every((m) => m.state === 'running') ? members : undefined;
      },
      60_000,
    );

  after(async () => {
    if (agent) await deleteAllPods(cluster).catch(() => undefined);
    await agent?.close();
    await daemon?.destroy();
    await cluster?.close();
  });

  test('Ready=False while it is down; then the pod is started over once, and logs --previous reads the container that died; its claimed pool sandbox and the unclaimed ones that died are removed, and the pool made again', async () => {
    const docker = new Docker({ socketPath: daemon.socket });
    const logsOf = (id: string) => execFileSync('docker', ['logs', id], { encoding: 'utf8', env: { ...process.env, DOCKER_HOST: `unix://${daemon.socket}` } });
    // The shell ends on SIGTERM, so the daemon's shutdown does not wait out its 10 s stop timeout.
    const command = ['sh', '-c', 'trap "exit 0" TERM; echo instance $(cat /proc/sys/kernel/random/uuid); sleep 3600 & wait'];
    // With the pool full (2 by default), the pod claims one of its sandboxes.
    const pooled = new Set((await poolHolds(2)).map((m) => m.id));
    await cluster.pods.create(podSpec('phoenix', cluster.nodeName, [{ name: 'main', command }]));
    const before = await waitForPod(cluster, 'phoenix', 'Running', (p) => status(p)?.state.running !== undefined);
    const uid = before.metadata.uid!;
    const sandboxesOf = () => agent!.runtimes.primary.listSandboxes({ labels: { [POD_UID]: uid } });
    const [claimed] = await sandboxesOf();
    assert.ok(claimed && pooled.has(claimed.id), 'the pod claimed a pool sandbox');
    const unclaimed = (await poolMembers()).map((m) => m.id);
    const firstLog = logsOf(containerIdOf(before, 'main'));
    assert.match(firstLog, /^instance [0-9a-f-]{36}\n$/);

    await daemon.stop();
    const down = await nodeReadyBecomes(cluster, 'False');
    assert.equal(down.reason, 'ContainerRuntimeUnhealthy');

    await daemon.start();
    await nodeReadyBecomes(cluster, 'True');
    // The container died with the daemon: one restart. (While the daemon stops its containers
    // one by one, the agent may see the app exit before the sandbox and restart it there; such a
    // container cannot start and is dropped uncounted, but one that got to run counts: at most two.)
    const afterwards = await waitForPod(
      cluster,
      'phoenix',
      'running again',
      (p) => (status(p)?.restartCount ?? 0) >= 1 && status(p)?.state.running !== undefined,
      45_000,
    );
    assert.ok((status(afterwards)?.restartCount ?? 0) <= 2, `restartCount ${status(afterwards)?.restartCount}`);
    assert.notEqual(containerIdOf(afterwards, 'main'), containerIdOf(before, 'main'));
    assert.match(afterwards.status?.podIP ?? '', /^10\.232\.7\.\d+$/, "an address of the node's range on the scratch daemon's pod network");
    const current = containerIdOf(afterwards, 'main');
    assert.match(logsOf(current), /^instance [0-9a-f-]{36}\n$/);
    assert.notEqual(logsOf(current), firstLog);

    await new Promise((r) => setTimeout(r, 1000));
    const objects = await podObjects(cluster.nodeName, uid, docker);
    const describe = JSON.stringify(objects.map((o) => [o.Names[0], o.State]));
    const mains = objects.filter((o) => o.Labels['drover.dev/container-name'] === 'main');
    // One sandbox, running, with the current container (the claimed one that died is gone, its
    // claim with it); of the dead containers, only the newest is kept, and `logs --previous` reads it.
    const sandboxes = await sandboxesOf();
    assert.deepEqual(
      sandboxes.map((s) => s.state),
      ['running'],
      describe,
    );
    assert.notEqual(sandboxes[0]!.id, claimed.id);
    await assert.rejects(docker.getContainer(claimed.id).inspect(), /no such container/i, 'the claimed sandbox that died is removed');
    assert.deepEqual(
      mains.filter((o) => o.State === 'running').map((o) => o.Id),
      [current],
      describe,
    );
    const dead = mains.filter((o) => o.State !== 'running');
    assert.equal(dead.length, 1, describe);
    const { containerId: previous } = await agent!.resolver.resolve('default', 'phoenix', 'main', { previous: true });
    assert.equal(previous, dead[0]!.Id);

    // The unclaimed members died with the daemon: none is left behind, and the pool is full again.
    const refilled = await poolHolds(2);
    assert.ok(!refilled.some((m) => unclaimed.includes(m.id)), 'new members, not the dead ones');
    // Sandboxes that died with the daemon while being joined are no reason to stop joining directly.
    assert.equal((await docker.getContainer(refilled[0]!.id).inspect()).HostConfig.NetworkMode, 'none', 'joined directly, not through an endpoint');
    for (const id of unclaimed) await assert.rejects(docker.getContainer(id).inspect(), /no such container/i, `dead pool sandbox ${id} removed`);
  });
});
