// Asking the node agents, at the streaming address their Node publishes (as the API server's
// pod proxy does), which pods they hold containers of (src/agent/streaming/pod-inventory.ts).
import { request } from 'node:http';
import type { KubeObject } from '../api/meta.js';
import { agentAddressOf } from '../apiserver/handlers/pod-proxy.js';
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

/** One request to the agent of `node`; rejects on anything but the expected status. */
export function askAgent(node: KubeObject, method: 'GET' | 'DELETE', path: string, expect: number): Promise<string> {
  const address = agentAddressOf(node);
  if (!address) return Promise.reject(new Error(`node ${node.metadata.name} publishes no agent endpoint`));
  return new Promise((resolve, reject) => {
    const req = request({ host: address.host, port: address.port, method, path, timeout: TIMEOUT_MS }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => (res.statusCode === expect ? resolve(body) : reject(new Error(`agent of node ${node.metadata.name}: HTTP ${res.statusCode}: ${body.slice(0, 300)}`))));
      res.on('error', reject);
    });
    req.once('timeout', () => req.destroy(new Error(`agent of node ${node.metadata.name} did not answer within ${TIMEOUT_MS / 1000}s`)));
    req.once('error', reject);
    req.end();
  });
}

/** Every node that publishes an agent endpoint, asked at once. */
export async function askAgents(nodes: readonly KubeObject[]): Promise<AgentInventories> {
  const reachable = nodes.filter((node) => agentAddressOf(node) !== undefined);
  const answers = new Map<string, AgentPods>();
  const unanswered: string[] = [];
  await Promise.all(reachable.map(async (node) => {
    const name = node.metadata.name ?? '';
    try {
      answers.set(name, JSON.parse(await askAgent(node, 'GET', '/pods', 200)) as AgentPods);
    } catch {
      unanswered.push(name);
    }
  }));
  return { answers, unanswered: unanswered.sort() };
}
