// `drover agent`: one node of the cluster — the agent that runs its pods, and the streaming
// server through which the API server reaches them for logs, exec, attach and port-forward.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startAgent, type Agent, type AgentOptions } from '../agent/index.js';
import { joinCluster, tlsOf } from '../agent/join/join.js';
import { pkiDir } from '../agent/join/pki-files.js';
import { startCertificateRotation, startRotation, type CertificateRotation } from '../agent/join/rotation.js';
import { servingCertificate } from '../agent/join/serving.js';
import { podNotFound, startStreamingServer, type ContainerResolver, type StreamingServer } from '../agent/streaming/index.js';
import type { StreamingTls } from '../agent/streaming/streaming-server.js';
import { ApiClient, consoleLogger } from '../client/index.js';
import { prepareDataDir } from '../util/data-dir.js';

export type NodeOptions = Omit<AgentOptions, 'streamingPort'> & {
  streamingPort?: number;
  /**
   * The cluster's join token (`drover agent --token`): with --server and no certificate of its
   * own yet, the agent joins with it (src/agent/join/join.ts).
   */
  token?: string;
  /**
   * The streaming endpoint's certificate and the cluster CA (`drover up` mints it in-process).
   * Without it the agent asks the cluster for one (src/agent/join/serving.ts).
   */
  servingTls?: StreamingTls;
};

export interface RunningNode {
  agent: Agent;
  streaming: StreamingServer;
  close(): Promise<void>;
}

/** The agent's resolver once it runs: only this node's containers of the pod's current uid (several agents may share one engine). */
function resolverOf(agent: () => Agent | undefined): ContainerResolver {
  // Before the agent runs it knows no pods.
  const running = (pod: string): ContainerResolver => {
    const current = agent();
    if (!current) throw podNotFound(pod);
    return current.resolver;
  };
  return {
    resolve: async (namespace, pod, container, options) => running(pod).resolve(namespace, pod, container, options),
    resolveSandbox: async (namespace, pod) => running(pod).resolveSandbox(namespace, pod),
  };
}

export async function startNode(given: NodeOptions): Promise<RunningNode> {
  const options: NodeOptions = { ...given, dataDir: await prepareDataDir(given.dataDir) };
  const joined = await joinedClient(options);
  if (joined) options.api = joined.api;
  // The client the agent will use, made here when it comes from --server/--kubeconfig: the
  // serving certificate is asked for with it.
  const ownApi = options.api
    ? undefined
    : await ApiClient.load(
        { ...(options.kubeconfig ? { kubeconfig: options.kubeconfig } : {}), ...(options.server ? { server: options.server } : {}) },
        { userAgent: 'drover-agent' },
      );
  if (ownApi) options.api = ownApi;
  const logger = options.logger ?? consoleLogger(`agent ${options.nodeName}`);
  const closeClients = () => {
    joined?.close();
    ownApi?.close();
  };
  let serving: ServingTls;
  try {
    serving = await servingTls(options, options.api!, logger);
  } catch (error) {
    closeClients();
    throw error;
  }
  // The streaming server starts first so the agent can publish its port in the Node; it finds
  // containers through the agent's runtimes once the agent is up.
  let agent: Agent | undefined;
  let streaming: StreamingServer;
  try {
    streaming = await startStreamingServer({
      host: options.nodeAddress ?? '127.0.0.1',
      port: options.streamingPort ?? 0,
      resolver: resolverOf(() => agent),
      pods: {
        nodeName: options.nodeName,
        list: async () => (agent ? agent.pods.list() : []),
        // Before the agent runs it knows no pods, and must not let anything be cleaned up.
        cleanUp: (uid) => (agent ? agent.pods.cleanUp(uid) : 'known'),
      },
      stats: {
        summary: async () => (agent ? agent.resources.summary() : { node: { nodeName: options.nodeName }, pods: [] }),
        history: (filter) => (agent ? agent.resources.history(filter) : { stepSeconds: 15, node: { nodeName: options.nodeName, points: [] }, pods: [] }),
      },
      metrics: async () => ({ contentType: agent?.metrics.contentType ?? 'text/plain', text: agent ? await agent.metrics.metrics() : '' }),
      tls: serving.tls,
    });
  } catch (error) {
    closeClients();
    throw error;
  }
  const server = streaming;
  const rotation = serving.rotate?.((cert, key) => server.setCertificate(cert, key));
  try {
    agent = await startAgent({ ...options, streamingPort: streaming.port });
  } catch (error) {
    rotation?.stop();
    await streaming.close();
    closeClients();
    throw error;
  }
  const running = agent;
  return {
    agent: running,
    streaming,
    async close() {
      rotation?.stop();
      await running.close();
      await streaming.close();
      closeClients();
    },
  };
}

interface ServingTls {
  tls: StreamingTls;
  /** Starts renewing the certificate, handing each new one to `apply`. */
  rotate?: (apply: (cert: string, key: string) => void) => CertificateRotation;
}

/**
 * The streaming endpoint's TLS: given, or the node's serving certificate from the cluster with
 * the cluster CA its client knows, renewed at 80% of its lifetime while the agent runs.
 */
async function servingTls(options: NodeOptions, api: ApiClient, logger: ReturnType<typeof consoleLogger>): Promise<ServingTls> {
  if (options.servingTls) return { tls: options.servingTls };
  const ca = api.config.tls?.ca?.toString();
  if (!ca) throw new Error("the agent's kubeconfig names no certificate authority: it needs the cluster CA to serve logs, exec and port-forward over TLS");
  const servingOptions = { nodeName: options.nodeName, dataDir: options.dataDir, altNames: [options.nodeAddress ?? '127.0.0.1'], logger };
  const first = await servingCertificate(api, servingOptions);
  return {
    tls: { cert: first.cert, key: first.key, ca },
    rotate: (apply) =>
      startRotation(
        first.cert,
        async () => {
          const renewed = await servingCertificate(api, servingOptions, true);
          apply(renewed.cert, renewed.key);
          return renewed.cert;
        },
        logger,
        'serving certificate',
      ),
  };
}

/**
 * A client under the node's own certificate, when the agent joins by token or joined before
 * (its data dir holds pki/): undefined when it connects with a kubeconfig instead.
 */
async function joinedClient(options: NodeOptions): Promise<{ api: ApiClient; close(): void } | undefined> {
  if (options.api || options.kubeconfig) return undefined;
  if (options.token === undefined && !existsSync(join(pkiDir(options.dataDir), 'client.crt'))) return undefined;
  if (!options.server) throw new Error('--token needs --server: the URL of an API server of the cluster to join');
  const logger = options.logger ?? consoleLogger(`agent ${options.nodeName}`);
  const joinOptions = {
    servers: options.server,
    nodeName: options.nodeName,
    dataDir: options.dataDir,
    logger,
    ...(options.token === undefined ? {} : { token: options.token }),
  };
  const files = await joinCluster(joinOptions);
  const api = new ApiClient({ server: options.server, namespace: 'default', tls: tlsOf(files) }, { userAgent: 'drover-agent' });
  const rotation: CertificateRotation = startCertificateRotation(api, files, joinOptions);
  return {
    api,
    close() {
      rotation.stop();
      api.close();
    },
  };
}
