// Asking the node agents, at the streaming address their Node publishes (as the API server's
// pod proxy does), which pods they hold containers of (src/agent/streaming/pod-inventory.ts).
import { request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { KubeObject } from '../api/meta.js';
import { agentAddressOf } from '../apiserver/handlers/pod-proxy.js';
import { agentTlsOptions, type AgentClientTls } from '../apiserver/handlers/agent-dial.js';
import type { InventoryState } from '../agent/streaming/pod-inventory.js';

export interface AgentPods {
  node: string;
  pods: Array<{ uid: string; state: InventoryState }>;
}

/** What asking every node's agent found: the answers, and the nodes whose agent did not answer. */
export interface AgentInventories {
  answers: Map<string, AgentPods>;
  unanswered: string[];
}

const TIMEOUT_MS = 5000;

/**
 * One request to the agent of `node`; rejects on anything but the expected status. With `tls`
 * (the checker's own client certificate and the cluster CA) over TLS, as the API server dials.
 */
export function askAgent(node: KubeObject, method: 'GET' | 'DELETE', path: string, expect: number, tls?: AgentClientTls): Promise<string> {
  const address = agentAddressOf(node);
  if (!address) return Promise.reject(new Error(`node ${node.metadata.name} publishes no agent endpoint`));
  return new Promise((resolve, reject) => {
    const options = { host: address.host, port: address.port, method, path, timeout: TIMEOUT_MS };
    const send = (callback: (res: import('node:http').IncomingMessage) => void) =>
      tls ? httpsRequest({ ...options, ...agentTlsOptions(tls, node.metadata.name ?? '', address.host), agent: false }, callback) : request(options, callback);
    const req = send((res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        res.statusCode === expect ? resolve(body) : reject(new Error(`agent of node ${node.metadata.name}: HTTP ${res.statusCode}: ${body.slice(0, 300)}`)),
      );
      res.on('error', reject);
    });
    req.once('timeout', () => req.destroy(new Error(`agent of node ${node.metadata.name} did not answer within ${TIMEOUT_MS / 1000}s`)));
    req.once('error', reject);
    req.end();
  });
}

/** Every node that publishes an agent endpoint, asked at once. */
export async function askAgents(nodes: readonly KubeObject[], tls?: AgentClientTls): Promise<AgentInventories> {
  const reachable = nodes.filter((node) => agentAddressOf(node) !== undefined);
  const answers = new Map<string, AgentPods>();
  const unanswered: string[] = [];
  await Promise.all(
    reachable.map(async (node) => {
      const name = node.metadata.name ?? '';
      try {
        answers.set(name, JSON.parse(await askAgent(node, 'GET', '/pods', 200, tls)) as AgentPods);
      } catch {
        unanswered.push(name);
      }
    }),
  );
  return { answers, unanswered: unanswered.sort() };
}
