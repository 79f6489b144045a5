// GET /stats/summary and /stats/history: the agent's resource figures (src/agent/stats/), for
// the API server's metrics.k8s.io and the dashboard's charts. The JSON is described in
// src/agent/stats/stats-shape.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StatsHistory, StatsSummary } from '../stats/stats-shape.js';
import { StreamingError, notFound } from './status.js';

export interface ResourceStats {
  summary(): Promise<StatsSummary>;
  history(filter: { namespace?: string; pod?: string }): StatsHistory;
}

export function isStatsPath(pathname: string): boolean {
  return pathname === '/stats/summary' || pathname === '/stats/history';
}

export async function serveStats(req: IncomingMessage, res: ServerResponse, url: URL, stats: ResourceStats | undefined): Promise<void> {
  if (!stats) throw notFound('this agent keeps no resource figures');
  if (req.method !== 'GET') throw new StreamingError(405, 'MethodNotAllowed', `${req.method ?? ''} is not allowed on ${url.pathname}`);
  let body: unknown;
  if (url.pathname === '/stats/summary') {
    body = await stats.summary();
  } else {
    const namespace = url.searchParams.get('namespace');
    const pod = url.searchParams.get('pod');
    body = stats.history({ ...(namespace === null ? {} : { namespace }), ...(pod === null ? {} : { pod }) });
  }
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}
