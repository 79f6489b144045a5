// Sandboxes the agent joins to the pod network itself (direct-attach.ts), against the real
// Docker Engine: made on "none", wired with a veth pair to the pod network's bridge, with the
// address, MAC, route and /etc/hosts line Docker's endpoint would have given; reachable from
// another pod; counted as taken by a runtime that did not make them; gone with their veth.
// hostPort sandboxes and `podNetworkAttach: 'engine'` keep Docker's endpoint.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import Docker from 'dockerode';
import { attach, hostEnd, joinPodNetwork, macFor, namespaceCommands, POD_IP, POD_NETWORK } from './direct-attach.js';
import { NETWORK_HOLDER, podNetworkName } from './pod-network.js';
import { cleanup, ensureDocker, freePort, newPod, newRuntime, readAll, run, runLabels, startSandbox } from '../../../../test/support/agent/docker-runtime.js';
import { reserveTestNetwork } from '../../../../test/support/test-network.js';
import { waitFor } from '../../../../test/support/wait-for.js';

const exec = promisify(execFile);

describe('direct attachment, pure parts', () => {
  it("gives an address Docker's MAC and names the host end after the sandbox", () => {
    assert.equal(macFor('10.42.3.17'), '02:42:0a:2a:03:11');
    assert.equal(hostEnd('0123456789abcdef0123'), 'drv0123456789ab');
    assert.equal(hostEnd('0123456789abcdef0123').length, 15);
    assert.equal(
      namespaceCommands({ pid: 1, id: 'x', ip: '10.42.3.17', prefix: 16, gateway: '10.42.0.1', bridge: 'drv-1' }),
      'link set eth0 address 02:42:0a:2a:03:11\naddr add 10.42.3.17/16 broadcast + dev eth0\nlink set eth0 up\nroute add default via 10.42.0.1\n',
    );
  });
});

describe('direct attachment, the process it joins', () => {
  it("refuses a process that is not the sandbox's (a number reused after the sandbox died): no pair is made", async (t) => {
    if (process.getuid?.() !== 0) return t.skip('needs root (unshare)');
    // A process in a network namespace of its own, in no container's cgroup.
    const stranger = spawn('unshare', ['-n', 'sleep', '30'], { stdio: 'ignore' });
    try {
      const id = 'f'.repeat(64);
      await assert.rejects(attach({ pid: stranger.pid!, id, ip: '10.99.0.5', prefix: 24, gateway: '10.99.0.1', bridge: 'lo' }), /is not the sandbox's here/);
      assert.equal(existsSync(`/sys/class/net/${hostEnd(id)}`), false);
    } finally {
      stranger.kill();
    }
  });
});

describe('direct attachment on Docker', { timeout: 180_000 }, () => {
  const network = reserveTestNetwork();
  const podCidr = network.podCidr;
  const range = podCidr.replace(/\.0\.0\/16$/, '.7.0/24');
  const docker = new Docker();
  const rt = newRuntime({ podCidr });
  before(() => ensureDocker(), { timeout: 600_000 });
  after(async () => {
    await cleanup();
    await docker
      .getContainer(`${podNetworkName(podCidr)}-holder`)
      .remove({ force: true })
      .catch(() => undefined);
    await docker
      .getNetwork(podNetworkName(podCidr))
      .remove()
      .catch(() => undefined);
    network.release();
  });

  it('joins a sandbox made on "none" with the address, MAC, route and hosts line of an endpoint', async () => {
    const pod = newPod('direct');
    const sandbox = await startSandbox(rt, pod, { hostname: 'direct-pod', addressRange: range });
    const info = await docker.getContainer(sandbox.id).inspect();
    assert.equal(info.HostConfig.NetworkMode, 'none');
    assert.equal(info.Config.Labels?.[POD_IP], sandbox.ip);
    assert.equal(info.Config.Labels?.[POD_NETWORK], podNetworkName(podCidr));
    assert.ok(sandbox.ip.startsWith(range.replace(/0\/24$/, '')), sandbox.ip);
    const gateway = podCidr.replace(/0\/16$/, '1');
    const probe = await run(rt, pod, sandbox, 'probe', {
      command: ['sh', '-c', 'ip -o -4 addr show eth0; cat /sys/class/net/eth0/address; ip route; cat /etc/hosts'],
    });
    assert.equal(await rt.waitContainer(probe), 0);
    const out = await readAll(await rt.logs(probe));
    assert.match(out, new RegExp(`eth0\\s+inet ${sandbox.ip.replace(/\./g, '\\.')}/16 brd `));
    assert.match(out, new RegExp(`^${macFor(sandbox.ip)}$`, 'm'));
    assert.match(out, new RegExp(`^default via ${gateway.replace(/\./g, '\\.')} dev eth0`, 'm'));
    assert.match(out, new RegExp(`^${sandbox.ip.replace(/\./g, '\\.')}\\tdirect-pod$`, 'm'));
    const listed = await rt.listSandboxes({ labels: { 'drover.dev/pod-uid': pod.uid } });
    assert.equal(listed[0]?.ip, sandbox.ip);
    // The network keeps an endpoint of Docker's own, so `docker network prune` and rm leave it alone.
    const holder = await waitFor('the network held open', () =>
      docker
        .getContainer(`${podNetworkName(podCidr)}-holder`)
        .inspect()
        .then((i) => i.State.Running && i),
    );
    assert.equal(holder.Config.Labels?.[NETWORK_HOLDER], podNetworkName(podCidr));
    await assert.rejects(docker.getNetwork(podNetworkName(podCidr)).remove(), /active endpoints/);
    const { stdout } = await exec('ip', ['-o', 'link', 'show', hostEnd(sandbox.id)]);
    assert.match(stdout, new RegExp(`master ${(await rt.ctx.podNetwork!.ensure()).bridge} `), 'the host end is on the pod bridge');
    await rt.removeSandbox(sandbox.id);
    // The kernel tears a namespace down in the background: the pair goes a moment after the sandbox.
    await waitFor(
      'the host end gone with the sandbox',
      () =>
        exec('ip', ['link', 'show', hostEnd(sandbox.id)]).then(
          () => false,
          () => true,
        ),
      10_000,
    );
  });

  it('a pod reaches another pod joined the same way, and the gateway', async () => {
    const a = newPod('direct-a');
    const b = newPod('direct-b');
    const [sa, sb] = [await startSandbox(rt, a, { addressRange: range }), await startSandbox(rt, b, { addressRange: range })];
    assert.notEqual(sa.ip, sb.ip);
    for (const s of [sa, sb]) assert.equal((await docker.getContainer(s.id).inspect()).HostConfig.NetworkMode, 'none');
    await run(rt, a, sa, 'server', { command: ['sh', '-c', 'while :; do echo hello-from-a | nc -l -p 8080; done'] });
    const gateway = podCidr.replace(/0\/16$/, '1');
    const client = await run(rt, b, sb, 'client', {
      command: ['sh', '-c', `ping -c1 -W2 ${gateway} >/dev/null && for i in $(seq 50); do nc ${sa.ip} 8080 </dev/null && exit 0; sleep 0.1; done; exit 1`],
    });
    assert.equal(await rt.waitContainer(client), 0);
    assert.match(await readAll(await rt.logs(client)), /hello-from-a/);
    await rt.removeSandbox(sa.id);
    await rt.removeSandbox(sb.id);
  });

  it("another runtime on the same engine (an agent's restart) does not pick a directly joined sandbox's address", async () => {
    const first = await startSandbox(rt, newPod('held'), { addressRange: range });
    const restarted = newRuntime({ podCidr });
    const second = await startSandbox(restarted, newPod('after'), { addressRange: range });
    assert.notEqual(second.ip, first.ip);
    await rt.removeSandbox(first.id);
    await rt.removeSandbox(second.id);
  });

  it('a running sandbox without its pair (its agent died while joining it) is listed as no usable sandbox', async () => {
    const pod = newPod('unjoined');
    const sandbox = await startSandbox(rt, pod, { addressRange: range });
    await exec('ip', ['link', 'del', hostEnd(sandbox.id)]);
    const [listed] = await rt.listSandboxes({ labels: { 'drover.dev/pod-uid': pod.uid } });
    assert.equal(listed?.state, 'unknown');
    await rt.removeSandbox(sandbox.id);
  });

  it('of two sandboxes labelled with one address (two agents picking at once), the older keeps it', async () => {
    const ip = range.replace(/0\/24$/, '200');
    const name = podNetworkName(podCidr);
    const make = async (label: string) => {
      const made = await docker.createContainer({
        Image: rt.ctx.pauseImage,
        name: `drover-test-${label}-${process.pid}-${Date.now()}`,
        Labels: { ...runLabels(), [POD_IP]: ip, [POD_NETWORK]: name },
        HostConfig: { NetworkMode: 'none' },
      });
      await made.start();
      return made.id;
    };
    const older = await make('older');
    await new Promise((resolve) => setTimeout(resolve, 1100)); // Docker lists creation times in seconds
    const younger = await make('younger');
    await assert.rejects(joinPodNetwork(rt.ctx, younger, { name, ip, direct: true }, 'younger'), /taken meanwhile by container/);
    await joinPodNetwork(rt.ctx, older, { name, ip, direct: true }, 'older');
    assert.equal(await rt.ctx.directAttach.unsupported(), undefined, 'losing an address is no reason to stop joining directly');
    for (const id of [older, younger]) await docker.getContainer(id).remove({ force: true });
  });

  it("a failure while the sandbox runs (here: no such bridge) turns direct attachment off; later sandboxes take Docker's endpoint", async () => {
    const broken = newRuntime({ podCidr });
    const network = broken.ctx.podNetwork!;
    const real = await network.ensure();
    network.ensure = async () => ({ ...real, bridge: 'drv-missing' });
    const told: string[] = [];
    broken.ctx.directAttach.onTurnedOff = (why) => told.push(why);
    await assert.rejects(startSandbox(broken, newPod('broken'), { addressRange: range }), /join the pod network/);
    assert.match((await broken.ctx.directAttach.unsupported()) ?? '', /turned off after a failure: .*drv-missing/);
    assert.deepEqual(told, [await broken.ctx.directAttach.unsupported()], 'the agent is told once, with the reason');
    const next = await startSandbox(broken, newPod('after-broken'), { addressRange: range });
    assert.equal((await docker.getContainer(next.id).inspect()).HostConfig.NetworkMode, podNetworkName(podCidr));
    await broken.removeSandbox(next.id);
  });

  it('a sandbox that dies while it is joined, still running for a lagging engine (a daemon that is stopping), leaves direct attachment on', async () => {
    const dying = newRuntime({ podCidr });
    const name = podNetworkName(podCidr);
    const made = await docker.createContainer({
      Image: rt.ctx.pauseImage,
      name: `drover-test-dying-${process.pid}-${Date.now()}`,
      Labels: runLabels(),
      HostConfig: { NetworkMode: 'none' },
    });
    await made.start();
    const running = await made.inspect();
    await made.kill();
    // The engine answers as it did while the sandbox ran: the same process, running.
    const getContainer = dying.ctx.docker.getContainer.bind(dying.ctx.docker);
    dying.ctx.docker.getContainer = (id: string) => (id === made.id ? ({ inspect: async () => running } as unknown as Docker.Container) : getContainer(id));
    const ip = range.replace(/0\/24$/, '201');
    await assert.rejects(joinPodNetwork(dying.ctx, made.id, { name, ip, direct: true }, 'dying'), /of the sandbox is gone/);
    assert.equal(await dying.ctx.directAttach.unsupported(), undefined);
    await made.remove({ force: true });
  });

  it("a sandbox with a hostPort, and every sandbox of an 'engine' runtime, keep Docker's endpoint", async () => {
    const exposed = await startSandbox(rt, newPod('exposed'), { addressRange: range, ports: [{ containerPort: 80 }] });
    assert.equal((await docker.getContainer(exposed.id).inspect()).HostConfig.NetworkMode, 'none', 'a port without a hostPort publishes nothing');
    const published = await startSandbox(rt, newPod('published'), { addressRange: range, ports: [{ containerPort: 80, hostPort: await freePort() }] });
    const info = await docker.getContainer(published.id).inspect();
    assert.equal(info.HostConfig.NetworkMode, podNetworkName(podCidr));
    assert.equal(info.NetworkSettings.Networks[podNetworkName(podCidr)]?.IPAddress, published.ip);
    const engine = newRuntime({ podCidr, podNetworkAttach: 'engine' });
    const viaEngine = await startSandbox(engine, newPod('engine'), { addressRange: range });
    assert.equal((await docker.getContainer(viaEngine.id).inspect()).HostConfig.NetworkMode, podNetworkName(podCidr));
    assert.notEqual(viaEngine.ip, '');
    for (const s of [exposed, published, viaEngine]) await rt.removeSandbox(s.id);
  });
});
