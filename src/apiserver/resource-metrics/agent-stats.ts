// The API server's reads of the agents' resource figures (src/agent/stats/stats-shape.ts), over
// the same authenticated TLS client as logs and exec (handlers/agent-dial.ts). Every node is
// asked at once with a deadline; a node that does not answer in time is left out, as
// metrics-server leaves out a kubelet it could not scrape. One fan-out serves every request for
// a few seconds, so many `kubectl top` and HPA reads cost the agents one call each.
import type { IncomingMessage } from 'node:http';
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import type { StatsHistory, StatsSummary } from '../../agent/stats/stats-shape.js';
import type { AgentClientTls } from '../handlers/agent-dial.js';
import { agentAddressOf, agentRequest, type AgentAddress } from '../handlers/pod-proxy.js';
import type { ObjectRegistry } from '../registry/object-registry.js';

export interface NodeSummary {
  node: KubeObject;
  summary: StatsSummary;
}

export interface AgentStatsOptions {
  /** Without it, agents are dialled over plain HTTP (tests with a streaming server of their own). */
  tls?: AgentClientTls;
  /** How long one fan-out's answers are served; default 3 s. */
  cacheMs?: number;
  /** How long an agent may take; default 5 s. */
  timeoutMs?: number;
}

/** The most an agent's answer may hold: a node's hour of figures is far below it. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

async function readJson<T>(response: IncomingMessage, deadline: number): Promise<T> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const timer = setTimeout(() => response.destroy(new Error("timed out reading the agent's answer")), Math.max(1, deadline - Date.now()));
  try {
    for await (const chunk of response) {
      bytes += (chunk as Buffer).length;
      if (bytes > MAX_ANSWER_BYTES) {
        response.destroy();
        throw new Error(`the agent's answer is over ${MAX_ANSWER_BYTES} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
  } finally {
    clearTimeout(timer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (response.statusCode !== 200) throw new Error(`the agent answered ${response.statusCode ?? '?'}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

export class AgentStats {
  private cached: { at: number; nodes: Promise<NodeSummary[]> } | undefined;

  constructor(
    private readonly registry: ObjectRegistry,
    private readonly options: AgentStatsOptions = {},
  ) {}

  /** The figures of every node that answered, from one recent fan-out. */
  summaries(): Promise<NodeSummary[]> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < (this.options.cacheMs ?? 3000)) return this.cached.nodes;
    const nodes = this.fanOut();
    this.cached = { at: now, nodes };
    // A failed fan-out is not served to the next request.
    nodes.catch(() => {
      if (this.cached?.nodes === nodes) this.cached = undefined;
    });
    return nodes;
  }

  /** One node's history; undefined when it reports no streaming address. */
  async history(node: KubeObject, filter: { namespace?: string; pod?: string }): Promise<StatsHistory | undefined> {
    const agent = this.addressOf(node);
    if (!agent) return undefined;
    const query = new URLSearchParams(Object.entries(filter).filter((e): e is [string, string] => e[1] !== undefined));
    return this.fetch<StatsHistory>(agent, `/stats/history?${query}`);
  }

  private async fanOut(): Promise<NodeSummary[]> {
    const nodesDef = findResource('', 'v1', 'nodes')!;
    const { items } = await this.registry.collection(nodesDef).list();
    const answers = await Promise.all(
      items.map(async (node) => {
        const agent = this.addressOf(node);
        if (!agent) return undefined;
        const summary = await this.fetch<StatsSummary>(agent, '/stats/summary').catch(() => undefined);
        return summary ? { node, summary } : undefined;
      }),
    );
    return answers.filter((a): a is NodeSummary => a !== undefined);
  }

  private addressOf(node: KubeObject): AgentAddress | undefined {
    const address = agentAddressOf(node);
    return address ? { node: node.metadata.name ?? '', ...address } : undefined;
  }

  private async fetch<T>(agent: AgentAddress, path: string): Promise<T> {
    const timeoutMs = this.options.timeoutMs ?? 5000;
    const deadline = Date.now() + timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`node ${agent.node} did not answer within ${timeoutMs} ms`)), timeoutMs);
    });
    const request = agentRequest(agent, 'GET', path, this.options.tls);
    try {
      const response = await Promise.race([request, late]);
      return await readJson<T>(response, deadline);
    } catch (error) {
      // An answer that comes after the deadline is closed, not left holding its socket.
      request.then(
        (response) => response.destroy(),
        () => undefined,
      );
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}
