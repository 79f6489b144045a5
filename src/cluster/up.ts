// `drover up`: a whole cluster in one process — the API server on SQLite, the scheduler and
// controllers, and one node (agent + streaming server) for this machine.
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { ApiClient } from '../client/index.js';
import { clusterNetwork } from '../api/cluster-network.js';
import { nodeSubject } from '../auth/components.js';
import { startNode, type NodeOptions, type RunningNode } from './node.js';
import { clientAs, startServer, type RunningServer, type ServerOptions } from './server.js';

export interface UpOptions extends ServerOptions {
  nodeName?: string;
  extendedResources?: Record<string, number>;
  labels?: Record<string, string>;
  /** Program service rules and serve the cluster DNS on the node (default true). */
  serviceProxy?: boolean;
  /** The node's sandbox pool (the agent's option). */
  sandboxPool?: NodeOptions['sandboxPool'];
  /** How the node's sandboxes join the pod network (the agent's option). */
  podNetworkAttach?: NodeOptions['podNetworkAttach'];
}

export interface RunningCluster {
  server: RunningServer;
  node: RunningNode;
  close(): Promise<void>;
}

export async function startUp(options: UpOptions): Promise<RunningCluster> {
  const server = await startServer(options);
  let node: RunningNode;
  let api: ApiClient | undefined;
  try {
    const nodeName = options.nodeName ?? hostname().toLowerCase();
    // The node is a client under its own node identity, as a joined agent is.
    api = await clientAs(server.api.url, server.security, nodeSubject(nodeName), 'drover-agent');
    // Its streaming endpoint serves HTTPS under the node's name, minted here as its client certificate is.
    const serving = await server.security.pki.issue(nodeSubject(nodeName), 'server', { altNames: ['127.0.0.1'] });
    const servingTls = { cert: serving.certPem, key: serving.keyPem, ca: server.security.pki.caPem };
    // The node follows the server's address plan: one plan for the whole cluster.
    const nodeOptions: NodeOptions = { api, nodeName, dataDir: join(server.dataDir, 'agent'), servingTls, network: clusterNetwork(options.network) };
    if (options.serviceProxy !== undefined) nodeOptions.serviceProxy = options.serviceProxy;
    if (options.extendedResources) nodeOptions.extendedResources = options.extendedResources;
    if (options.labels) nodeOptions.labels = options.labels;
    if (options.sandboxPool) nodeOptions.sandboxPool = options.sandboxPool;
    if (options.podNetworkAttach) nodeOptions.podNetworkAttach = options.podNetworkAttach;
    options.onPhase?.('node');
    node = await startNode(nodeOptions);
  } catch (error) {
    api?.close();
    await server.close();
    throw error;
  }
  const nodeApi = api;
  return {
    server,
    node,
    async close() {
      await node.close();
      nodeApi.close();
      await server.close();
    },
  };
}
