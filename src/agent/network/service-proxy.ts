// kube-proxy's job on this node: keeps the node's service rules equal to what the cluster's
// Services and EndpointSlices say. Every change (coalesced) writes the chains that changed in one
// transaction, as kube-proxy's minimal restores do; the first write and one every few minutes
// write the whole set and sweep every other chain of ours, so nothing stale survives a restart.
// The rules stay when the agent stops (pods keep their traffic, as with kube-proxy); `stop({
// removeRules: true })` is for an agent that leaves for good.
import { createHash } from 'node:crypto';
import type { ClusterNetwork } from '../../api/cluster-network.js';
import type { Logger } from '../../client/index.js';
import { startLoop, type Loop } from '../util/loop.js';
import {
  agentComment,
  allowLoopbackRouting,
  ensureJumps,
  removeEarlierJumps,
  ensureUnreachableRoute,
  otherAgentsOfCluster,
  removeOtherClustersRules,
  removeRules,
  syncServiceRoutes,
  writeChains,
  type HostIdentity,
  type Jump,
} from './host-rules.js';
import type { ServiceDirectory } from './service-directory.js';
import { buildRules, chainPrefix } from './service-rules.js';

/** How often the rules are built again whatever the watches said. */
const RESYNC_MS = 30_000;
/** A full rewrite now and then: repairs rules someone else touched. */
const FULL_WRITE_MS = 300_000;

/** What the rules are made from: the ServiceDirectory's reads (a benchmark gives its own). */
export type ServiceSource = Pick<ServiceDirectory, 'allServices' | 'slicesOf' | 'onChange'>;

export interface ServiceProxyOptions {
  directory: ServiceSource;
  network: ClusterNetwork;
  clusterId: string;
  nodeName: string;
  nodeAddress: string;
  /** The pod network's bridge. */
  bridge: string;
  /** The node's pod CIDR once the node IPAM has given it one. */
  nodeRange: () => string | undefined;
  /** Where this node's cluster DNS listens (ip:port), when it serves one. */
  dnsListen?: string | undefined;
  logger: Logger;
}

export function agentKey(clusterId: string, nodeName: string): string {
  return createHash('sha256').update(`${clusterId}/${nodeName}`).digest('hex').slice(0, 8);
}

export class ServiceProxy {
  private readonly identity: HostIdentity;
  private loop: Loop | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Each chain's rules as last written; empty until the first (full) write. */
  private written = new Map<string, string>();
  private range: string | undefined;
  /** The cluster IPs routed at the last write, joined. */
  private routed = '';
  private fullWriteAt = 0;
  /** Rule writes, for tests and the benchmark: how many, the last one's duration and chains written. */
  readonly stats = { writes: 0, lastWriteMs: 0, lastWriteChains: 0 };

  constructor(private readonly options: ServiceProxyOptions) {
    const key = agentKey(options.clusterId, options.nodeName);
    const comment = agentComment(options.clusterId, options.nodeName, options.network.serviceCidr);
    this.identity = { key, comment, serviceCidr: options.network.serviceCidr };
  }

  /** The prefix of this agent's chains (DRV-<key>-). */
  get chainPrefix(): string {
    return chainPrefix(this.identity.key);
  }

  async start(): Promise<void> {
    const { network, logger } = this.options;
    // Before any rule: a service address without one fails on this machine, never leaves it.
    await ensureUnreachableRoute(network.serviceCidr);
    await allowLoopbackRouting(this.options.bridge);
    for (const comment of await removeOtherClustersRules(this.identity, this.options.clusterId)) {
      logger.warn('removed the service rules another cluster left for the same service range', { rules: comment });
    }
    await this.sync();
    // After this run's jumps are in: the traffic never goes untranslated in between.
    await removeEarlierJumps(this.identity);
    this.unsubscribe = this.options.directory.onChange(() => this.loop?.kick());
    this.loop = startLoop('service rules', RESYNC_MS, () => this.sync(), logger);
  }

  /** Writes the rules again now (the node got its pod CIDR). */
  kick(): void {
    this.loop?.kick();
  }

  async stop(opts: { removeRules?: boolean } = {}): Promise<void> {
    this.unsubscribe?.();
    await this.loop?.stop();
    this.loop = undefined;
    if (!opts.removeRules) return;
    await removeRules(this.identity);
    if (!(await otherAgentsOfCluster(this.identity, this.options.clusterId))) {
      await syncServiceRoutes(this.options.network.serviceCidr, this.options.bridge, []);
    }
  }

  private async sync(): Promise<void> {
    const { directory, network } = this.options;
    const services = directory.allServices().map((service) => ({
      service,
      slices: directory.slicesOf(service.metadata.namespace ?? '', service.metadata.name ?? ''),
    }));
    const rules = buildRules({
      key: this.identity.key,
      nodeName: this.options.nodeName,
      nodeAddress: this.options.nodeAddress,
      bridge: this.options.bridge,
      serviceCidr: network.serviceCidr,
      dns: this.options.dnsListen ? { serviceIP: network.clusterDns, listen: this.options.dnsListen } : undefined,
      services,
    });
    const range = this.options.nodeRange();
    const next = new Map([...rules.chains].map(([chain, lines]) => [chain, lines.join('\n')]));
    const full = this.written.size === 0 || Date.now() - this.fullWriteAt >= FULL_WRITE_MS;
    const changed = full ? [...rules.chains.keys()] : [...next].filter(([chain, text]) => this.written.get(chain) !== text).map(([chain]) => chain);
    const removed = full ? [] : [...this.written.keys()].filter((chain) => !next.has(chain));
    if (changed.length === 0 && removed.length === 0 && range === this.range) return;
    const started = performance.now();
    await writeChains(this.identity, new Map(changed.map((chain) => [chain, rules.chains.get(chain)!])), { remove: removed, sweep: full });
    // Jumps and routes are looked at only when they can differ (and on a full write, which
    // repairs what someone else removed): a changed endpoint costs one iptables-restore.
    if (full || range !== this.range) await ensureJumps(this.identity, this.jumps(range));
    const routed = rules.routedIPs.join(' ');
    if (full || routed !== this.routed) await syncServiceRoutes(network.serviceCidr, this.options.bridge, rules.routedIPs);
    this.written = next;
    this.range = range;
    this.routed = routed;
    if (full) this.fullWriteAt = Date.now();
    this.stats.writes++;
    this.stats.lastWriteMs = performance.now() - started;
    this.stats.lastWriteChains = changed.length + removed.length;
  }

  /**
   * Pods' traffic enters this node's rules by source: its own pods (its pod CIDR) first, ahead of
   * every other agent's; the catch-all for the whole pod range last, for pods of nodes that had
   * no range yet. The node's own traffic and the masquerade always.
   */
  private jumps(range: string | undefined): Jump[] {
    const prefix = this.chainPrefix;
    const services = `${prefix}SVC`;
    return [
      ...(range ? [{ chain: 'PREROUTING' as const, match: `-s ${range}`, target: services, position: 'first' as const }] : []),
      { chain: 'PREROUTING', match: `-s ${this.options.network.podCidr}`, target: services, position: 'last' },
      { chain: 'OUTPUT', match: '', target: services, position: 'last' },
      { chain: 'POSTROUTING', match: '', target: `${prefix}POST`, position: 'first' },
    ];
  }
}
