// `drover agent`: one node of the cluster — the agent that runs its pods, and the streaming
// server through which the API server reaches them for logs, exec, attach and port-forward.
import { startAgent, type Agent, type AgentOptions } from '../agent/index.js';
import { startStreamingServer, type StreamingServer } from '../agent/streaming/index.js';

export type NodeOptions = Omit<AgentOptions, 'streamingPort'> & { streamingPort?: number };

export interface RunningNode {
  agent: Agent;
  streaming: StreamingServer;
  close(): Promise<void>;
}

export async function startNode(options: NodeOptions): Promise<RunningNode> {
  // The streaming server starts first so the agent can publish its port in the Node; it finds
  // containers through the agent's runtimes once the agent is up.
  let agent: Agent | undefined;
  const streaming = await startStreamingServer({
    host: options.nodeAddress ?? '127.0.0.1',
    port: options.streamingPort ?? 0,
    // Only this node's containers of the pod's current uid: several agents may share one engine.
    resolve: (namespace, pod, container) => (agent ? agent.streamingResolve(namespace, pod, container) : Promise.resolve(undefined)),
    pods: {
      nodeName: options.nodeName,
      list: async () => (agent ? agent.pods.list() : []),
      // Before the agent runs it knows no pods, and must not let anything be cleaned up.
      cleanUp: (uid) => (agent ? agent.pods.cleanUp(uid) : 'known'),
    },
    metrics: async () => ({ contentType: agent?.metrics.contentType ?? 'text/plain', text: agent ? await agent.metrics.metrics() : '' }),
  });
  try {
    agent = await startAgent({ ...options, streamingPort: streaming.port });
  } catch (error) {
    await streaming.close();
    throw error;
  }
  const running = agent;
  return {
    agent: running,
    streaming,
    async close() {
      await running.close();
      await streaming.close();
    },
  };
}
