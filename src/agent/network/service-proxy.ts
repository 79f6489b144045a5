// kube-proxy's job on this node: keeps the node's service rules equal to what the cluster's
// Services and EndpointSlices say. Every change (coalesced) and a periodic resync write the whole
// rule set in one transaction; a restarted agent writes it afresh, so nothing stale survives it.
// The rules stay when the agent stops (pods keep their traffic, as with kube-proxy); `stop({
// removeRules: true })` is for an agent that leaves for good.
import { createHash } from 'node:crypto';
import type { ClusterNetwork } from '../../api/cluster-network.js';
import type { Logger } from '../../client/index.js';
import { startLoop, type Loop } from '../util/loop.js';
import {
  allowLoopbackRouting, ensureJumps, ensureUnreachableRoute, otherAgentsOfCluster, removeOtherClustersRules, removeRules,
  syncServiceRoutes, writeChains, type HostIdentity, type Jump,
} from './host-rules.js';
import type { ServiceDirectory } from './service-directory.js';
import { buildRules, chainPrefix } from './service-rules.js';

/** A full rewrite now and then, whatever the watches said: repairs rules someone else touched. */
const RESYNC_MS = 30_000;

export interface ServiceProxyOptions {
  directory: ServiceDirectory;
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
  private written = '';
  private writtenAt = 0;
  /** Rule writes, for tests and the benchmark: how many, and the last one's duration. */
  readonly stats = { writes: 0, lastWriteMs: 0 };

  constructor(private readonly options: ServiceProxyOptions) {
    const key = agentKey(options.clusterId, options.nodeName);
    this.identity = { key, comment: `drover ${options.clusterId} ${options.nodeName} ${options.network.serviceCidr}`, serviceCidr: options.network.serviceCidr };
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
    const state = `${range ?? ''}\n${rules.nat}`;
    // The same rules are written again only by the periodic resync, in case someone else touched them.
    if (state === this.written && Date.now() - this.writtenAt < RESYNC_MS - 1000) return;
    const started = performance.now();
    await writeChains(this.identity, rules.nat, rules.chains);
    await ensureJumps(this.identity, this.jumps(range));
    await syncServiceRoutes(network.serviceCidr, this.options.bridge, rules.routedIPs);
    this.written = state;
    this.writtenAt = Date.now();
    this.stats.writes++;
    this.stats.lastWriteMs = performance.now() - started;
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
