// A sandbox joined to the pod network by the agent itself, as the CNI bridge plugin joins a
// Kubernetes pod: the sandbox is made with Docker's network "none", and once it runs the agent
// puts a veth pair between its network namespace and the pod network's bridge, with the pod's
// address, Docker's MAC for that address and the network's gateway as default route.
//
// Why not let Docker attach it: on a user-defined network (the pod network is one: it has the
// cluster's pod CIDR and fixed addresses) Docker starts its embedded DNS server in every
// container's namespace — a re-exec of dockerd plus eleven iptables commands under the xtables
// lock per sandbox, for a resolver Drover's pods never use (their resolv.conf names the cluster
// DNS). Measured here with 50 containers started at once: 7.0–7.4 s on a user-defined network,
// 5.4–5.7 s on "none", 5.5–5.9 s on Docker's default bridge (which has no resolver). The agent's
// own wiring is two small commands (`ip -batch`, and the same through `nsenter`; a few ms).
//
// What stays Docker's: the network itself (bridge, gateway, masquerading, isolation rules), and
// every sandbox that publishes hostPorts (Docker's port mapping needs its endpoint). A sandbox's
// address is in its POD_IP label, where Docker's inspect has none; pod-network.ts counts those
// addresses as taken, and since Docker no longer refuses a second holder, of two sandboxes that
// got one address (two agents picking at once) the younger gives it up. The veth pair goes with
// the namespace when the sandbox stops, and is deleted with the sandbox besides. A running
// sandbox whose pair is missing (its agent died while joining it) is reported dead, so its pod
// gets a new one. What Docker's endpoints also did, keep `docker network prune` off a network
// its pods use, one holder container per network does (PodNetwork.holdOpen).
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, open, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type Docker from 'dockerode';
import type { DockerContext } from './client.js';
import type { SandboxNetwork } from './container-config.js';

const run = promisify(execFile);
/** Past this the commands are given up (a machine too busy to run two small commands): no reason to stop joining directly. */
const ATTACH_TIMEOUT_MS = 10_000;

/** On a sandbox the agent joined to the pod network itself: its address, and the Docker network it is on. */
export const POD_IP = 'drover.dev/pod-ip';
export const POD_NETWORK = 'drover.dev/pod-network';

/** How sandboxes join the pod network: the agent's own veth pair (default), or Docker's endpoint. */
export type PodNetworkAttach = 'direct' | 'engine';

export interface DirectAttachment {
  /** The sandbox's first process, whose network namespace is joined. */
  pid: number;
  /** The sandbox's id: the host end of the pair is named after it. */
  id: string;
  ip: string;
  /** The pod network's prefix length (every pod of the network is on-link, as with Docker's endpoint). */
  prefix: number;
  gateway: string;
  /** The pod network's bridge; both ends take its MTU, as Docker's endpoint takes the network's. */
  bridge: string;
}

/**
 * The agent's side of the choice: whether it may join sandboxes itself. It must run as root with
 * `ip` and `nsenter`, in the pid namespace of the engine's containers; the first failure (an
 * engine on another machine, say) turns direct attachment off for the runtime's life, with a
 * reason, and later sandboxes go through Docker's endpoint.
 */
export class DirectAttach {
  private checked: Promise<string | undefined> | undefined;
  private offBecause: string | undefined;

  constructor(private readonly wanted: boolean) {}

  /** Whether a sandbox at `ip` is joined directly: it has an address in the node's range and publishes no hostPort. */
  async joins(ip: string | undefined, publishesHostPorts = false): Promise<boolean> {
    return ip !== undefined && !publishesHostPorts && (await this.unsupported()) === undefined;
  }

  /** Why sandboxes are not joined directly now; undefined when they are. */
  async unsupported(): Promise<string | undefined> {
    if (!this.wanted) return 'turned off (--pod-network-attach engine)';
    if (this.offBecause) return this.offBecause;
    this.checked ??= toolsMissing();
    return this.checked;
  }

  /** Told once, with the reason, when a failure turns direct attachment off (the agent logs it). */
  onTurnedOff: ((why: string) => void) | undefined;

  /** Direct attachment failed in a way that will not mend: later sandboxes use Docker's endpoint. */
  turnOff(reason: string): void {
    if (this.offBecause) return;
    this.offBecause = `turned off after a failure: ${reason}`;
    this.onTurnedOff?.(this.offBecause);
  }
}

async function toolsMissing(): Promise<string | undefined> {
  if (process.getuid?.() !== 0) return 'the agent does not run as root';
  try {
    await run('ip', ['-V'], { timeout: ATTACH_TIMEOUT_MS });
    await run('nsenter', ['--version'], { timeout: ATTACH_TIMEOUT_MS });
    return undefined;
  } catch (error) {
    return `ip or nsenter cannot run here: ${(error as Error).message.trim()}`;
  }
}

/** Docker's MAC for an address (02:42 and the address's four bytes): a reused address keeps its MAC, so no ARP cache goes stale. */
export function macFor(ip: string): string {
  return ['02', '42', ...ip.split('.').map((byte) => Number(byte).toString(16).padStart(2, '0'))].join(':');
}

/** The host end's name: Linux allows 15 characters; a container id's first 12 hex digits keep it unique. */
export function hostEnd(id: string): string {
  return `drv${id.slice(0, 12)}`;
}

/** The commands run inside the sandbox's network namespace (`ip -batch`). */
export function namespaceCommands(a: DirectAttachment): string {
  return [
    `link set eth0 address ${macFor(a.ip)}`,
    `addr add ${a.ip}/${a.prefix} broadcast + dev eth0`,
    'link set eth0 up',
    `route add default via ${a.gateway}`,
    '',
  ].join('\n');
}

/** The sandbox died before it was joined: its failure, never the machine's. */
class SandboxGoneError extends Error {
  constructor(pid: number) {
    super(`process ${pid} of the sandbox is gone`);
  }
}

/** Joins the running sandbox's namespace to the bridge. A failure leaves at most a pair that goes with the namespace. */
export async function attach(a: DirectAttachment): Promise<void> {
  // The namespace is held open before process `pid` is checked to be the sandbox's (its cgroup
  // path names the container), and the commands enter what is held, never `pid` again: a sandbox
  // that died meanwhile, its number taken by an unrelated process, fails the check instead of
  // having the pair put into that process's namespace.
  const namespace = await open(`/proc/${a.pid}/ns/net`, 'r').catch(() => undefined);
  if (namespace === undefined) throw new SandboxGoneError(a.pid);
  try {
    const cgroup = await readFile(`/proc/${a.pid}/cgroup`, 'utf8').catch(() => undefined);
    if (cgroup === undefined) throw new SandboxGoneError(a.pid);
    // (The engine's pid names a process of this machine only when dockerd shares the agent's pid namespace.)
    if (!cgroup.includes(a.id)) throw new Error(`process ${a.pid} of the engine is not the sandbox's here (dockerd in another pid namespace?)`);
    const host = hostEnd(a.id);
    const mtu = await readFile(`/sys/class/net/${a.bridge}/mtu`, 'utf8').then(
      (text) => text.trim(),
      () => Promise.reject(new Error(`no bridge ${a.bridge} on this machine`)),
    );
    // Two commands, no shell: `ip` makes the pair with its inner end in the namespace (held as
    // descriptor 3: `ip` and `nsenter` take a path to it) and puts the outer end on the bridge;
    // then, inside, the address, MAC and route.
    const hostCommands = `link add ${host} mtu ${mtu} type veth peer name eth0 mtu ${mtu} netns /proc/self/fd/3\nlink set ${host} master ${a.bridge} up\n`;
    try {
      await runWithNamespace('ip', ['-batch', '-'], hostCommands, namespace.fd);
      await runWithNamespace('nsenter', ['--net=/proc/self/fd/3', 'ip', '-batch', '-'], namespaceCommands(a), namespace.fd);
    } catch (err) {
      // `killed` tells a timeout (a busy machine) from a refusal.
      const error = err as Error & { killed?: boolean };
      throw Object.assign(new Error(`veth ${host} to bridge ${a.bridge}: ${error.message}`), { killed: error.killed });
    }
  } finally {
    await namespace.close();
  }
}

/** Runs `command` with `input` on its stdin and the namespace `fd` as its descriptor 3; a failure says what it wrote to stderr. */
function runWithNamespace(command: string, args: string[], input: string, fd: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe', fd], timeout: ATTACH_TIMEOUT_MS });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(Object.assign(new Error(stderr.trim() || `${command} ended with ${code ?? signal}`), { killed: child.killed }));
    });
    child.stdin!.end(input);
  });
}

/** Whether the host end of the sandbox's pair is on this machine. */
function hasHostEnd(id: string): boolean {
  return existsSync(`/sys/class/net/${hostEnd(id)}`);
}

/** A sandbox made on "none" that runs without its pair: its agent died while joining it (it has no network). */
export function joinedIncompletely(id: string, labels: Record<string, string>): boolean {
  return labels[POD_IP] !== undefined && !hasHostEnd(id);
}

/** The host end of a removed sandbox's pair, should its namespace outlive it (held open by some process). */
export async function removeHostEnd(id: string): Promise<void> {
  // Usually the kernel removed the pair with the namespace: no command to run then.
  if (!hasHostEnd(id)) return;
  await run('ip', ['link', 'del', hostEnd(id)], { timeout: ATTACH_TIMEOUT_MS }).catch(() => undefined);
}

/**
 * A started sandbox made on "none" joins the pod network, and its /etc/hosts gets the line Docker
 * writes for an address. An older holder of the same address keeps it (this sandbox fails, and its
 * pod picks again). A failure while the sandbox still runs is the machine's, not the sandbox's
 * (no bridge here, no right to enter namespaces, the engine's processes not this machine's): it
 * turns direct attachment off, and later sandboxes go through Docker's endpoint.
 */
export async function joinPodNetwork(ctx: DockerContext, id: string, network: SandboxNetwork, hostname: string): Promise<Docker.ContainerInspectInfo> {
  const ip = network.ip!;
  const info = await ctx.docker.getContainer(id).inspect();
  await keepAddressOrGiveUp(ctx, info, network.name, ip);
  const { bridge, gateway, cidr } = await ctx.podNetwork!.ensure();
  // In the background, off the pod's start; not the sandbox's failure when the network cannot be
  // held (tried again with the next sandbox): only `docker network prune` would find it unused.
  void ctx.podNetwork!.holdOpen(ctx.pauseImage).catch(() => undefined);
  try {
    await attach({ pid: info.State.Pid, id: info.Id, ip, prefix: Number(cidr.split('/')[1]), gateway, bridge });
    await addHostsLine(info.HostsPath, ip, hostname);
  } catch (err) {
    const message = (err as Error).message.trim();
    const timedOut = (err as { killed?: boolean }).killed === true;
    // The engine may still call a sandbox whose process is gone running (a daemon that is
    // stopping marks its containers exited one by one): a gone process is never the machine's fault.
    const machines = !timedOut && !(err instanceof SandboxGoneError) && (await stillRuns(ctx, id, info.State.Pid));
    if (machines) ctx.directAttach.turnOff(message);
    throw new Error(`join the pod network at ${ip}: ${message}`, { cause: err });
  }
  return info;
}

async function stillRuns(ctx: DockerContext, id: string, pid: number): Promise<boolean> {
  const now = await ctx.docker
    .getContainer(id)
    .inspect()
    .catch(() => undefined);
  return now?.State.Running === true && now.State.Pid === pid;
}

/** Of the sandboxes labelled with one address, the oldest (then the lowest id) keeps it; the others fail. */
async function keepAddressOrGiveUp(ctx: DockerContext, info: Docker.ContainerInspectInfo, network: string, ip: string): Promise<void> {
  const holders = await ctx.docker.listContainers({ all: true, filters: { label: [`${POD_IP}=${ip}`, `${POD_NETWORK}=${network}`] } });
  const created = Math.floor(new Date(info.Created).getTime() / 1000);
  const older = holders.find((c) => c.Id !== info.Id && (c.Created < created || (c.Created === created && c.Id < info.Id)));
  if (older) throw new Error(`pod address ${ip} was taken meanwhile by container ${older.Id.slice(0, 12)}`);
}

/** The line Docker writes in a sandbox's /etc/hosts for its address; with network "none" Docker writes none. */
async function addHostsLine(hostsPath: string, ip: string, hostname: string): Promise<void> {
  await appendFile(hostsPath, `${ip}\t${hostname}\n`);
}
