// Docker's part of the sandbox pool (the agent's part, which decides when and how many, is
// pods/sandbox/pool.ts): pause sandboxes on the pod network made before their pod exists, and
// the claim that makes one a pod's sandbox. A sandbox is a container start and its network (its
// veth pair, direct-attach.ts) before the pod's own container can start; a claim costs two small
// file writes and a durable record instead.
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { dockerName, type DockerContext } from './client.js';
import { poolSandboxCreateOptions, type SandboxNetwork } from './container-config.js';
import { removeContainer } from './containers.js';
import { engineMessage, mapContainerError, statusOf } from './engine-errors.js';
import { adoptWaitingShims, hostnameShimUnsupported } from './hostname-shim.js';
import type { PauseImage } from './pause-image.js';
import { joinPodNetwork } from './direct-attach.js';
import { inspectedIP, listedIP, sandboxFromInspect } from './sandbox.js';
import { labelFilters, mapState } from './state.js';
import type { SandboxClaims } from './sandbox-claims.js';
import { RuntimeError, RuntimeUnavailableError, SandboxError } from '../errors.js';
import { KIND, MANAGED, POOL_MEMBER } from '../labels.js';
import type { ListFilter, PoolMember, SandboxClaim, SandboxInfo, SandboxPoolRuntime } from '../runtime.js';

export class DockerSandboxPool implements SandboxPoolRuntime {
  private pidsChecked: Promise<string | undefined> | undefined;

  constructor(
    private readonly ctx: DockerContext,
    private readonly claims: SandboxClaims,
    private readonly pause: PauseImage,
  ) {}

  async unsupported(): Promise<string | undefined> {
    if (!this.ctx.podNetwork) return 'no pod network (the runtime was given no pod CIDR)';
    // A claim writes the sandbox's hostname files, which are under the engine's root dir: an
    // engine on another machine (DOCKER_HOST=ssh://...) or out of reach of this user has none here.
    // An engine that does not answer now is asked again at the pool's next start, not judged.
    const root = await this.ctx.docker.info().then(
      (info: { DockerRootDir?: string }) => info.DockerRootDir ?? '',
      (error: unknown) => {
        throw new RuntimeUnavailableError(`docker info: ${(error as Error).message}`, { cause: error });
      },
    );
    try {
      await access(join(root, 'containers'), constants.W_OK);
    } catch {
      return `the engine's containers folder (${root || 'unknown'}/containers) is not writable here`;
    }
    return hostnameShimUnsupported(this.ctx);
  }

  async create(opts: { labels: Record<string, string>; addressRange?: string | undefined; keepFree: number }): Promise<PoolMember> {
    await this.pause.ensure();
    const network = await this.network(opts.addressRange, opts.keepFree);
    const name = dockerName([this.ctx.namePrefix, 'POOL', randomUUID().slice(0, 12)]);
    let id: string;
    try {
      id = (await this.ctx.starts.run(() => this.ctx.docker.createContainer(poolSandboxCreateOptions(this.ctx, name, opts.labels, network)))).id;
    } catch (err) {
      throw mapContainerError(err, '', (message) => new SandboxError(`create pool sandbox: ${message}`, { engineMessage: message, cause: err }));
    } finally {
      if (network.ip) this.ctx.podNetwork?.release(network.ip);
    }
    let info: Docker.ContainerInspectInfo;
    try {
      await this.ctx.starts.run(() => this.ctx.docker.getContainer(id).start());
      // Docker's default hostname is the id's first 12 characters: a claim renames it (nameFiles).
      info = network.direct ? await joinPodNetwork(this.ctx, id, network, id.slice(0, 12)) : await this.ctx.docker.getContainer(id).inspect();
    } catch (err) {
      await removeContainer(this.ctx, id, true).catch(() => undefined);
      throw mapContainerError(err, id, (message) => new SandboxError(`start pool sandbox: ${message}`, { engineMessage: message, cause: err }));
    }
    // The hostname shim needs the engine's pids to be ours (hostname-shim.ts): known once it
    // worked; a failure (nsenter timing out on a loaded machine, say) is asked again next time.
    this.pidsChecked ??= hostnameShimUnsupported(this.ctx, info.State.Pid);
    const unsupported = await this.pidsChecked;
    if (unsupported) {
      this.pidsChecked = undefined;
      await removeContainer(this.ctx, id, true).catch(() => undefined);
      throw new SandboxError(`pool sandbox: ${unsupported}`);
    }
    return this.memberOf(info);
  }

  private async network(addressRange: string | undefined, keepFree: number): Promise<SandboxNetwork> {
    const podNetwork = this.ctx.podNetwork;
    if (!podNetwork) throw new SandboxError('no pod network: sandboxes cannot be made ahead of their pods');
    try {
      const { name } = await podNetwork.ensure();
      const ip = addressRange ? await podNetwork.pickAddress(addressRange, keepFree) : undefined;
      return { name, range: addressRange, ip, direct: await this.ctx.directAttach.joins(ip) };
    } catch (err) {
      throw new SandboxError(`pool sandbox: ${engineMessage(err)}`, { engineMessage: engineMessage(err), cause: err });
    }
  }

  private memberOf(info: Docker.ContainerInspectInfo): PoolMember {
    return {
      id: info.Id,
      state: mapState(info.State.Status, info.State.Running),
      ip: inspectedIP(this.ctx, info),
      addressRange: info.Config.Labels?.[POOL_MEMBER] ?? '',
      createdAt: new Date(info.Created),
    };
  }

  async list(filter: ListFilter): Promise<PoolMember[]> {
    let list: Docker.ContainerInfo[];
    try {
      const members = { ...filter, labels: { ...(filter.labels ?? {}), [POOL_MEMBER]: true as const } };
      list = await this.ctx.docker.listContainers({ all: filter.all ?? true, filters: labelFilters(members, { [MANAGED]: 'true', [KIND]: 'sandbox' }) });
    } catch (err) {
      throw mapContainerError(err, '', (message) => new RuntimeError(`list pool sandboxes: ${message}`, { engineMessage: message, cause: err }));
    }
    return list
      .filter((c) => !this.claims.get(c.Id))
      .map((c) => ({
        id: c.Id,
        state: mapState(c.State),
        ip: listedIP(this.ctx, c),
        addressRange: c.Labels?.[POOL_MEMBER] ?? '',
        createdAt: new Date(c.Created * 1000),
      }));
  }

  /** Claims whose sandbox is gone are dropped; shimmed containers a dead agent left waiting get their hostname. */
  async adopt(filter: ListFilter): Promise<void> {
    for (const id of this.claims.ids()) {
      const exists = await this.ctx.docker
        .getContainer(id)
        .inspect()
        .then(
          () => true,
          (err: unknown) => statusOf(err) !== 404,
        );
      if (!exists) await this.claims.drop(id);
    }
    await adoptWaitingShims(this.ctx, filter);
  }

  /**
   * The pod's name goes into the sandbox's /etc/hostname and /etc/hosts (its containers share
   * both files) first, then the claim is recorded: an agent killed in between leaves an unclaimed
   * member, which the next one removes as stale.
   */
  async claim(id: string, claim: SandboxClaim): Promise<SandboxInfo> {
    let info: Docker.ContainerInspectInfo;
    try {
      info = await this.ctx.docker.getContainer(id).inspect();
    } catch (err) {
      throw mapContainerError(err, id, (message) => new SandboxError(`claim pool sandbox ${id}: ${message}`, { engineMessage: message, cause: err }));
    }
    if (!info.State.Running) throw new SandboxError(`claim pool sandbox ${id}: it is ${info.State.Status}, not running`);
    if (info.Config.Labels?.[POOL_MEMBER] === undefined || this.claims.get(info.Id))
      throw new SandboxError(`claim pool sandbox ${id}: not an unclaimed pool member`);
    await nameFiles(info, claim.hostname, inspectedIP(this.ctx, info));
    await this.claims.record(info.Id, claim);
    const sandbox = sandboxFromInspect(this.ctx, info);
    if (!sandbox) throw new SandboxError(`claim pool sandbox ${id}: its claim did not take`);
    return sandbox;
  }
}

/** /etc/hostname and /etc/hosts as Docker writes them for a sandbox made with the pod's hostname; in place (its containers bind-mount them). */
async function nameFiles(info: Docker.ContainerInspectInfo, hostname: string, ip: string): Promise<void> {
  try {
    await writeFile(info.HostnamePath, `${hostname}\n`);
    const hosts = await readFile(info.HostsPath, 'utf8');
    const lines = hosts.split('\n').map((line) => (ip && line.split(/\s+/)[0] === ip ? `${ip}\t${hostname}` : line));
    await writeFile(info.HostsPath, lines.join('\n'));
  } catch (err) {
    throw new SandboxError(`claim pool sandbox ${info.Id}: write its hostname files: ${(err as Error).message}`, { cause: err });
  }
}
