// The agent's streaming endpoint: what the API server proxies `kubectl logs`, `exec`, `attach`,
// `cp`, `port-forward` and `drover signal` to. Its address is in the Node's status
// (status.addresses + status.daemonEndpoints.kubeletEndpoint.Port), as a kubelet's is.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { serveContainerLogs } from './container-logs.js';
import { defaultPortDialer, type PortDialer } from './port-dialer.js';
import { isInventoryPath, serveInventory, type PodInventory } from './pod-inventory.js';
import type { ContainerResolver } from './resolver.js';
import { parseStreamingPath } from './routes.js';
import { serveSignal } from './signal.js';
import { StreamingError, badRequest, notFound, toStreamingError, writeStatus } from './status.js';
import { createWebSocketServer, handleStreamingUpgrade, refuseUpgrade, type SessionInfo } from './upgrades.js';

export interface StreamingServerOptions {
  /** Loopback by default: the API server is the only client. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  resolve: ContainerResolver;
  /** How port-forward reaches a port in the pod; defaults to `nc` in the sandbox (see port-dialer.ts). */
  dialPort?: PortDialer;
  /** Told of every exec, attach and port-forward session as it starts, with what was negotiated. */
  onSession?: (info: SessionInfo) => void;
  /** The agent's pods, for the data checker's orphan-container check (pod-inventory.ts). */
  pods?: PodInventory;
  /** The agent's Prometheus metrics, served at /metrics as a kubelet serves its own. */
  metrics?: () => Promise<{ contentType: string; text: string }>;
}

export interface StreamingServer {
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

async function serveRequest(req: IncomingMessage, res: ServerResponse, options: StreamingServerOptions): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://agent');
  if (url.pathname === '/healthz') {
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    return;
  }
  if (isInventoryPath(url.pathname)) return serveInventory(req, res, url.pathname, options.pods);
  if (url.pathname === '/metrics' && options.metrics) {
    const { contentType, text } = await options.metrics();
    res.writeHead(200, { 'Content-Type': contentType }).end(text);
    return;
  }
  const route = parseStreamingPath(url.pathname);
  if (!route) throw notFound(`the agent serves no ${url.pathname}`);
  const method = req.method ?? 'GET';
  const target = { namespace: route.namespace, pod: route.pod, container: route.container ?? '' };
  if (route.kind === 'containerLogs') {
    if (method !== 'GET') throw new StreamingError(405, 'MethodNotAllowed', `${method} is not allowed on container logs`);
    return serveContainerLogs(req, res, target, url.searchParams, options.resolve);
  }
  if (route.kind === 'signal') {
    if (method !== 'POST') throw new StreamingError(405, 'MethodNotAllowed', `${method} is not allowed on signal; use POST`);
    return serveSignal(res, target, url.searchParams, options.resolve);
  }
  throw badRequest('Upgrade request required');
}

export async function startStreamingServer(options: StreamingServerOptions): Promise<StreamingServer> {
  const host = options.host ?? '127.0.0.1';
  const sockets = new Set<Socket | Duplex>();
  const websockets = createWebSocketServer();
  const upgradeContext = { resolve: options.resolve, dialPort: options.dialPort ?? defaultPortDialer, ...(options.onSession ? { onSession: options.onSession } : {}) };
  const server = createServer((req, res) => {
    serveRequest(req, res, options).catch((error: unknown) => writeStatus(res, toStreamingError(error)));
  });
  // Upgraded connections leave the HTTP server's bookkeeping; close() must still end them.
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
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
    url: `http://${host}:${port}`,
    host,
    port,
    async close() {
      for (const socket of sockets) socket.destroy();
      websockets.wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
