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
  /** The node got its pod CIDR: its pods' traffic enters its own rules from now on. */
  podCidrAssigned(): void;
  stop(opts?: { removeRules?: boolean }): Promise<void>;
}

export async function startNodeNetwork(options: NodeNetworkOptions): Promise<NodeNetwork> {
  const { podNetwork, logger } = options;
  const info = podNetwork ? await podNetwork.ensure() : undefined;
  if (!info || !options.serviceProxy) return { podCidrAssigned: () => undefined, stop: async () => undefined };
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
    podCidrAssigned: () => proxy.kick(),
    async stop(opts) {
      await proxy.stop(opts);
      await dns.close();
    },
  };
}
