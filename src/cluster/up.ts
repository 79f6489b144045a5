// `drover up`: a whole cluster in one process — the API server on SQLite, the scheduler and
// controllers, and one node (agent + streaming server) for this machine.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { startNode, type NodeOptions, type RunningNode } from './node.js';
import { startServer, type RunningServer, type ServerOptions } from './server.js';

export interface UpOptions extends ServerOptions {
  nodeName?: string;
  extendedResources?: Record<string, number>;
  labels?: Record<string, string>;
}

export interface RunningCluster {
  server: RunningServer;
  node: RunningNode;
  close(): Promise<void>;
}

export async function startUp(options: UpOptions): Promise<RunningCluster> {
  const server = await startServer(options);
  let node: RunningNode;
  try {
    const nodeOptions: NodeOptions = {
      server: server.api.url,
      nodeName: options.nodeName ?? hostname().toLowerCase(),
      dataDir: join(server.dataDir, 'agent'),
    };
    if (options.extendedResources) nodeOptions.extendedResources = options.extendedResources;
    if (options.labels) nodeOptions.labels = options.labels;
    node = await startNode(nodeOptions);
  } catch (error) {
    await server.close();
    throw error;
  }
  return {
    server,
    node,
    async close() {
      await node.close();
      await server.close();
    },
  };
}
