// The agent's streaming endpoint: what the API server proxies `kubectl logs`, `exec`, `attach`,
// `cp`, `port-forward` and `drover signal` to. Its address is in the Node's status
// (status.addresses + status.daemonEndpoints.kubeletEndpoint.Port), as a kubelet's is.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import { serveContainerLogs } from './container-logs.js';
import { defaultPortDialer, type PortDialer } from './port-dialer.js';
import { isInventoryPath, serveInventory, type PodInventory } from './pod-inventory.js';
import { isStatsPath, serveStats, type ResourceStats } from './resource-stats.js';
import type { ContainerResolver } from './resolver.js';
import { parseStreamingPath } from './routes.js';
import { serveSignal } from './signal.js';
import { StreamingError, badRequest, notFound, toStreamingError, writeStatus } from './status.js';
import { POD_START_STAGES_PATH, podStartStages } from '../../metrics/pod-start-stages.js';
import { createWebSocketServer, handleStreamingUpgrade, refuseUpgrade, type SessionInfo } from './upgrades.js';

export interface StreamingServerOptions {
  /** Loopback by default: the API server is the only client. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /** Which container or sandbox a request means (resolver.ts); what it cannot find is answered with its ResolveError. */
  resolver: ContainerResolver;
  /** How port-forward reaches a port in the pod; defaults to `nc` in the sandbox (see port-dialer.ts). */
  dialPort?: PortDialer;
  /** Told of every exec, attach and port-forward session as it starts, with what was negotiated. */
  onSession?: (info: SessionInfo) => void;
  /** The agent's pods, for the data checker's orphan-container check (pod-inventory.ts). */
  pods?: PodInventory;
  /** The agent's resource figures, served at /stats/summary and /stats/history (resource-stats.ts). */
  stats?: ResourceStats;
  /** The agent's Prometheus metrics, served at /metrics as a kubelet serves its own. */
  metrics?: () => Promise<{ contentType: string; text: string }>;
  /**
   * Serve HTTPS with this certificate, and take only clients with a certificate the cluster CA
   * signed that may reach agents (mayDialAgents): the API server, the data checker, an admin;
   * and members of system:monitoring for /metrics only.
   * Without it, plain HTTP (tests of the server itself).
   */
  tls?: StreamingTls;
}

export interface StreamingTls {
  /** The node's serving certificate and key (PEM). */
  cert: string;
  key: string;
  /** The cluster CA, which client certificates must chain to. */
  ca: string;
}

type CertificateSubject = { CN?: string | string[]; O?: string | string[] } | undefined;

const list = (value: string | string[] | undefined) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Who may use an agent's endpoint: the API server and the data checker, or a cluster admin. */
export function mayDialAgents(subject: CertificateSubject): boolean {
  const names = list(subject?.CN);
  return names.includes('system:drover-apiserver') || names.includes('system:drover-data-checker') || list(subject?.O).includes('system:masters');
}

/** Who may read an agent's /metrics (and /healthz) only: Kubernetes' system:monitoring group (Prometheus). */
function mayReadMetrics(subject: CertificateSubject): boolean {
  return list(subject?.O).includes('system:monitoring');
}

/** Paths a metrics reader may ask for; everything else is the API server's, the checker's or an admin's. */
const METRICS_PATHS = new Set(['/metrics', '/healthz']);

export interface StreamingServer {
  url: string;
  host: string;
  port: number;
  /** A renewed serving certificate, for connections from now on (HTTPS servers only). */
  setCertificate(cert: string, key: string): void;
  close(): Promise<void>;
}

/** Whether this request's client may use the whole endpoint (not only read metrics); plain HTTP is tests'. */
function mayUseAll(req: IncomingMessage): boolean {
  const socket = req.socket as Partial<TLSSocket>;
  return typeof socket.getPeerCertificate !== 'function' || mayDialAgents(socket.getPeerCertificate().subject);
}

async function serveRequest(req: IncomingMessage, res: ServerResponse, options: StreamingServerOptions): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://agent');
  if (!METRICS_PATHS.has(url.pathname) && !mayUseAll(req)) throw new StreamingError(403, 'Forbidden', `a metrics reader may not use ${url.pathname}`);
  if (url.pathname === '/healthz') {
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    return;
  }
  if (isInventoryPath(url.pathname)) return serveInventory(req, res, url.pathname, options.pods);
  if (isStatsPath(url.pathname)) return serveStats(req, res, url, options.stats);
  if (url.pathname === '/metrics' && options.metrics) {
    const { contentType, text } = await options.metrics();
    res.writeHead(200, { 'Content-Type': contentType }).end(text);
    return;
  }
  // An agent in a process of its own keeps the stages of its pods' starts here (the API server's hold the rest).
  if (url.pathname === POD_START_STAGES_PATH) {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ items: podStartStages.list() }));
    return;
  }
  const route = parseStreamingPath(url.pathname);
  if (!route) throw notFound(`the agent serves no ${url.pathname}`);
  const method = req.method ?? 'GET';
  const target = { namespace: route.namespace, pod: route.pod, container: route.container ?? '' };
  if (route.kind === 'containerLogs') {
    if (method !== 'GET') throw new StreamingError(405, 'MethodNotAllowed', `${method} is not allowed on container logs`);
    return serveContainerLogs(req, res, target, url.searchParams, options.resolver);
  }
  if (route.kind === 'signal') {
    if (method !== 'POST') throw new StreamingError(405, 'MethodNotAllowed', `${method} is not allowed on signal; use POST`);
    return serveSignal(res, target, url.searchParams, options.resolver);
  }
  throw badRequest('Upgrade request required');
}

export async function startStreamingServer(options: StreamingServerOptions): Promise<StreamingServer> {
  const host = options.host ?? '127.0.0.1';
  const sockets = new Set<Socket | Duplex>();
  const websockets = createWebSocketServer();
  const upgradeContext = {
    resolver: options.resolver,
    dialPort: options.dialPort ?? defaultPortDialer,
    ...(options.onSession ? { onSession: options.onSession } : {}),
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    serveRequest(req, res, options).catch((error: unknown) => writeStatus(res, toStreamingError(error)));
  };
  const tls = options.tls;
  // The handshake rejects clients without a certificate of the cluster's; a certificate of
  // someone not allowed here (another node, a user) is cut off before any request is read.
  const server: Server = tls
    ? createHttpsServer({ cert: tls.cert, key: tls.key, ca: tls.ca, requestCert: true, rejectUnauthorized: true }, handler)
    : createServer(handler);
  if (tls) {
    server.on('secureConnection', (socket: TLSSocket) => {
      const subject = socket.getPeerCertificate()?.subject;
      if (!mayDialAgents(subject) && !mayReadMetrics(subject)) socket.destroy();
    });
  }
  // Upgraded connections leave the HTTP server's bookkeeping; close() must still end them.
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (!mayUseAll(req)) return refuseUpgrade(socket, new StreamingError(403, 'Forbidden', 'a metrics reader may not exec, attach or port-forward'));
    handleStreamingUpgrade(req, socket, head, websockets, upgradeContext).catch((error: unknown) => refuseUpgrade(socket, error));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tls ? 'https' : 'http'}://${host}:${port}`,
    host,
    port,
    setCertificate(cert, key) {
      if (tls)
        (server as unknown as { setSecureContext(options: object): void }).setSecureContext({
          cert,
          key,
          ca: tls.ca,
          requestCert: true,
          rejectUnauthorized: true,
        });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      websockets.wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
