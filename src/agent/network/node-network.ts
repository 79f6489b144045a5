// The node's part of the cluster network, started with the agent: the pod network on Docker
// (made if missing), and — unless the agent was told not to — the service rules (kube-proxy's
// job) and the cluster DNS for its pods (CoreDNS's), listening on the pod network's gateway.
import type { ClusterNetwork } from '../../api/cluster-network.js';
import type { Logger } from '../../client/index.js';
import type { PodNetwork } from '../runtime/docker/pod-network.js';
import type { ServiceDirectory } from './service-directory.js';
import { startDnsServer } from '../dns/index.js';
import { ServiceProxy } from './service-proxy.js';

export interface NodeNetworkOptions {
  network: ClusterNetwork;
  /** The Docker runtime's pod network; none when the node runs host processes only. */
  podNetwork: PodNetwork | undefined;
  directory: ServiceDirectory;
  clusterId: string;
  nodeName: string;
  nodeAddress: string;
  nodeRange: () => string | undefined;
  serviceProxy: boolean;
  logger: Logger;
}

export interface NodeNetwork {
  /** Whether this node serves the cluster DNS (and programs the service rules) for its pods. */
  readonly servesDns: boolean;
  /** The node got its pod CIDR: its pods' traffic enters its own rules from now on. */
  podCidrAssigned(): void;
  stop(opts?: { removeRules?: boolean }): Promise<void>;
}

export async function startNodeNetwork(options: NodeNetworkOptions): Promise<NodeNetwork> {
  const { podNetwork, logger } = options;
  const info = podNetwork ? await podNetwork.ensure() : undefined;
  const none: NodeNetwork = { servesDns: false, podCidrAssigned: () => undefined, stop: async () => undefined };
  if (!info || !options.serviceProxy) return none;
  if (process.getuid?.() !== 0) {
    // iptables and routes need root (CAP_NET_ADMIN), as kube-proxy does. Without it the node
    // still runs pods, on the pod network, reached by pod IP; Services by name and address don't.
    logger.error('not root: no service rules or cluster DNS on this node (run the agent as root, or pass --no-service-proxy to say so)');
    return none;
  }
  // On the gateway, which every pod reaches and nothing off this machine does; the rules send the
  // cluster DNS address there. A port of its own: several agents (and clusters) share the gateway.
  const dns = await startDnsServer({ host: info.gateway, port: 0, view: options.directory, domain: options.network.clusterDomain, logger });
  const proxy = new ServiceProxy({
    directory: options.directory,
    network: options.network,
    clusterId: options.clusterId,
    nodeName: options.nodeName,
    nodeAddress: options.nodeAddress,
    bridge: info.bridge,
    nodeRange: options.nodeRange,
    dnsListen: `${dns.host}:${dns.port}`,
    logger,
  });
  try {
    await proxy.start();
  } catch (error) {
    await dns.close();
    throw error;
  }
  return {
    servesDns: true,
    podCidrAssigned: () => proxy.kick(),
    async stop(opts) {
      await proxy.stop(opts);
      await dns.close();
    },
  };
}
