// The pod network on Docker: one bridge network per pod CIDR, shared by every agent on this
// Docker Engine, so a pod of node A reaches a pod of node B at its pod IP with no routing at all.
// Each node's pods take their addresses from the node's own slice (spec.podCIDR, a /24 handed
// out by the node IPAM controller), picked here as the CNI host-local plugin picks them; the
// service rules tell nodes' pods apart by those slices. Docker's own allocator hands out only
// the first /24 (the gateway's), for pods of a node that has no slice yet.
import type Docker from 'dockerode';
import { addressAt, cidrContains, formatCidr, parseCidr, type Cidr } from '../../../api/cluster-network.js';
import { POD_IP, POD_NETWORK } from './direct-attach.js';
import { engineMessage, statusOf } from './engine-errors.js';

export const POD_CIDR_LABEL = 'drover.dev/pod-cidr';
/** On the container that holds a pod network open (PodNetwork.holdOpen): the network's name. */
export const NETWORK_HOLDER = 'drover.dev/pod-network-holder';
/** An address picked for a sandbox that is not created yet stays taken this long. */
const RESERVATION_MS = 60_000;

export interface PodNetworkInfo {
  /** The Docker network's name (`drover-10.42.0.0-16`). */
  name: string;
  /** The Linux bridge behind it (`drv-<8 hex>`), which the service rules name. */
  bridge: string;
  /** The host's address on the bridge: the pods' gateway, where the node's DNS listens. */
  gateway: string;
  cidr: string;
}

export function podNetworkName(podCidr: string): string {
  return `drover-${podCidr.replace(/[./]/g, '-')}`;
}

/** Linux interface names hold 15 characters: a stable digest of the range keeps them apart. */
function bridgeName(podCidr: string): string {
  let hash = 0x811c9dc5;
  for (const char of podCidr) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return `drv-${hash.toString(16).padStart(8, '0')}`;
}

export class PodNetwork {
  private readonly cidr: Cidr;
  private ensured: Promise<PodNetworkInfo> | undefined;
  private held: Promise<void> | undefined;
  private readonly reserved = new Map<string, number>();
  /** Numbers of the picks whose list of the engine's containers is in flight. */
  private readonly listing = new Set<number>();
  private listsBegun = 0;
  /**
   * Addresses released since the oldest list in flight began, each with the number of lists begun
   * by its release: a list begun before may not show the container that now holds the address.
   */
  private readonly released = new Map<string, number>();

  constructor(
    private readonly docker: Docker,
    readonly podCidr: string,
  ) {
    const cidr = parseCidr(podCidr);
    if (!cidr) throw new Error(`pod CIDR ${podCidr} is not an IPv4 CIDR`);
    this.cidr = cidr;
  }

  get name(): string {
    return podNetworkName(this.podCidr);
  }

  /** Creates the network once (any agent may; a concurrent create by another is fine). */
  ensure(): Promise<PodNetworkInfo> {
    this.ensured ??= this.inspectOrCreate().catch((error: unknown) => {
      this.ensured = undefined;
      throw error;
    });
    return this.ensured;
  }

  /**
   * Keeps one endpoint of Docker's own on the network: sandboxes the agent joins itself
   * (direct-attach.ts) are none of Docker's, and a network without endpoints is one `docker
   * network prune` removes, bridge and gateway, under its running pods. The holder is a pause
   * container (`image`) that Docker restarts with the engine, one per network, whichever agent on
   * the engine made it first; its address is in the first /24, which no node's range takes.
   */
  holdOpen(image: string): Promise<void> {
    this.held ??= this.startHolder(image).catch((error: unknown) => {
      this.held = undefined;
      throw error;
    });
    return this.held;
  }

  private async startHolder(image: string): Promise<void> {
    const name = `${this.name}-holder`;
    try {
      await this.docker.createContainer({
        name,
        Image: image,
        Labels: { [NETWORK_HOLDER]: this.name },
        HostConfig: { NetworkMode: this.name, RestartPolicy: { Name: 'unless-stopped' } },
      });
    } catch (error) {
      if (statusOf(error) !== 409) throw new Error(`create ${name}: ${engineMessage(error)}`);
    }
    const holder = this.docker.getContainer(name);
    if ((await holder.inspect()).State.Running) return;
    await holder.start().catch((error: unknown) => {
      if (statusOf(error) !== 304) throw new Error(`start ${name}: ${engineMessage(error)}`);
    });
  }

  private async inspectOrCreate(): Promise<PodNetworkInfo> {
    const existing = await this.inspect();
    if (existing) return existing;
    const first = { base: this.cidr.base, prefix: 24, size: 256 };
    try {
      await this.docker.createNetwork({
        Name: this.name,
        Driver: 'bridge',
        CheckDuplicate: true,
        IPAM: { Driver: 'default', Config: [{ Subnet: this.podCidr, IPRange: formatCidr(first), Gateway: addressAt(this.cidr, 1) }] },
        Options: { 'com.docker.network.bridge.name': bridgeName(this.podCidr) },
        Labels: { [POD_CIDR_LABEL]: this.podCidr },
      });
    } catch (error) {
      // Another agent made it meanwhile (the engine says 409, or that the pool overlaps the one it
      // just made); anything else, such as another network on the range, is the user's to see.
      const made = await this.inspect();
      if (made) return made;
      throw new Error(`create the pod network ${this.name} (${this.podCidr}): ${engineMessage(error)}`);
    }
    const made = await this.inspect();
    if (!made) throw new Error(`the pod network ${this.name} vanished right after it was created`);
    return made;
  }

  private async inspect(): Promise<PodNetworkInfo | undefined> {
    let info: { Id: string; Options?: Record<string, string>; IPAM?: { Config?: Array<{ Gateway?: string }> } };
    try {
      info = await this.docker.getNetwork(this.name).inspect();
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw new Error(`inspect the pod network ${this.name}: ${engineMessage(error)}`);
    }
    return {
      name: this.name,
      // A network the user made (an overlay's, say) has the engine's bridge name.
      bridge: info.Options?.['com.docker.network.bridge.name'] ?? `br-${info.Id.slice(0, 12)}`,
      gateway: info.IPAM?.Config?.[0]?.Gateway ?? addressAt(this.cidr, 1),
      cidr: this.podCidr,
    };
  }

  /**
   * A free address of the node's range (its spec.podCIDR): not held by any container of the
   * network, nor picked for a sandbox being made. Two agents of different clusters sharing the
   * network may still race for one: the engine refuses the second at start, or, for sandboxes the
   * agent joins itself, the younger gives it up (direct-attach.ts); either sandbox is made again
   * under the usual back-off.
   */
  async pickAddress(nodeRange: string, keepFree = 0): Promise<string> {
    const range = parseCidr(nodeRange);
    if (!range || !cidrContains(this.cidr, addressAt(range, 0)))
      throw new Error(`the node's pod CIDR ${nodeRange} is not inside the cluster's ${this.podCidr}`);
    const list = ++this.listsBegun;
    this.listing.add(list);
    let used: Set<string>;
    try {
      used = await this.addressesInUse();
    } finally {
      this.listing.delete(list);
    }
    // An address released while this list was in flight went to a container the list may have
    // missed: without this, two sandboxes made at once took one address (a rolling update of 50
    // saw a dozen such collisions, each a sandbox failed and made again 10 s later).
    const takenUnseen = (ip: string) => (this.released.get(ip) ?? 0) >= list;
    const now = Date.now();
    for (const [ip, until] of this.reserved) if (until < now) this.reserved.delete(ip);
    // .0 and the last address are skipped: some tools take them for network and broadcast.
    const free: string[] = [];
    for (let index = 1; index < range.size - 1 && free.length <= keepFree; index++) {
      const ip = addressAt(range, index);
      if (!used.has(ip) && !this.reserved.has(ip) && !takenUnseen(ip)) free.push(ip);
    }
    this.forgetReleasesSeenByAll();
    const ip = free[0];
    if (ip === undefined) throw new Error(`no free pod address left in the node's pod CIDR ${nodeRange}`);
    // A sandbox made ahead of its pod leaves `keepFree` addresses to pods that cannot take one of those.
    if (free.length <= keepFree) throw new Error(`fewer than ${keepFree + 1} free pod addresses left in the node's pod CIDR ${nodeRange}`);
    this.reserved.set(ip, now + RESERVATION_MS);
    return ip;
  }

  /** Frees a picked address (its sandbox was made, or failed). */
  release(ip: string): void {
    this.reserved.delete(ip);
    if (this.listing.size > 0) this.released.set(ip, this.listsBegun);
  }

  /** Forgets the releases that every list still in flight began after: those lists show their containers. */
  private forgetReleasesSeenByAll(): void {
    const oldest = Math.min(...this.listing);
    for (const [ip, mark] of this.released) if (mark < oldest) this.released.delete(ip);
  }

  /**
   * Every address of the network's containers, created ones included (a static address is held
   * from create on, though the engine only claims it at start), whoever's they are, and of the
   * sandboxes joined to it directly.
   */
  private async addressesInUse(): Promise<Set<string>> {
    // One list of every container: the engine walks them all for a filtered list too.
    const containers = await this.docker.listContainers({ all: true });
    const used = new Set<string>();
    for (const container of containers) {
      // A sandbox the agent joined itself holds an address Docker knows nothing of (direct-attach.ts).
      const direct = container.Labels?.[POD_NETWORK] === this.name ? container.Labels[POD_IP] : undefined;
      if (direct) used.add(direct);
      const endpoint = (
        container.NetworkSettings?.Networks as Record<string, { IPAddress?: string; IPAMConfig?: { IPv4Address?: string } | null }> | undefined
      )?.[this.name];
      for (const ip of [endpoint?.IPAddress, endpoint?.IPAMConfig?.IPv4Address]) if (ip) used.add(ip);
    }
    return used;
  }
}
