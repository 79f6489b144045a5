// The API server: an HTTP server on loopback that routes Kubernetes REST paths to the handlers,
// serves discovery, OpenAPI, health and metrics, and answers every failure with a Status.
import './prototype-guard.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { resourceDefinitions, findResource } from '../api/registry.js';
import { OPENAPI_V2_PROTOBUF_TYPE, openApiV2Protobuf, openApiV2Serialized, openApiV3Index, openApiV3Serialized } from '../api/openapi/index.js';
import type { Store } from '../storage/store.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, SERVER_VERSION } from './discovery.js';
import { ApiError, methodNotAllowed, pathNotFound, toApiError } from './errors.js';
import type { RequestContext } from './handlers/context.js';
import { bindPod, evictPod } from './handlers/pod-binding.js';
import { serveResource, type SubresourceHandlers } from './handlers/resource-handler.js';
import { writeError, writeJson, writeText } from './http-io.js';
import { ApiMetrics, instrumentStore } from './metrics.js';
import { NamespaceLifecycle } from './namespace-lifecycle.js';
import { EventTtl } from './event-ttl.js';
import { ObjectRegistry } from './registry/object-registry.js';
import { decodePath, parseResourcePath, splitRequestTarget, type ResourcePath } from './routes.js';
import { ensureSystemNamespaces } from './bootstrap.js';
import { ensureDefaultRbac } from '../auth/rbac/defaults.js';
import { ClusterRoleAggregator } from '../auth/rbac/aggregation.js';
import { ANONYMOUS_USER } from '../auth/types.js';

export interface ApiServerOptions {
  store: Store;
  host?: string;
  /** 0 picks a free port. */
  port: number;
  subresources?: SubresourceHandlers;
  /** HTTP upgrades (pods/exec, attach, portforward: handlers/pod-proxy.ts); without it they get 400. */
  onUpgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer, registry: ObjectRegistry) => void;
  /** Events not bumped for this long are deleted (Kubernetes' --event-ttl). Default 3600. */
  eventTtlSeconds?: number;
}

export interface ApiServer {
  url: string;
  port: number;
  registry: ObjectRegistry;
  metrics: ApiMetrics;
  close(): Promise<void>;
}

export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const metrics = new ApiMetrics();
  const registry = new ObjectRegistry(instrumentStore(options.store, metrics));
  await ensureSystemNamespaces(registry);
  await ensureDefaultRbac(registry);
  const aggregator = new ClusterRoleAggregator(registry);
  await aggregator.start();
  const namespaceDef = findResource('', 'v1', 'namespaces')!;
  const lifecycle = new NamespaceLifecycle(registry, resourceDefinitions, namespaceDef);
  await lifecycle.start();
  const eventTtl = new EventTtl(registry.store, findResource('', 'v1', 'events')!, { ttlSeconds: options.eventTtlSeconds });
  eventTtl.start();
  const subresources: SubresourceHandlers = new Map([
    ['/pods/binding', bindPod],
    ['/pods/eviction', evictPod],
    ...(options.subresources ?? new Map()),
  ]);
  const server = createServer((req, res) => void handle(req, res, registry, metrics, subresources));
  server.keepAliveTimeout = 65_000;
  // Upgraded sockets leave the HTTP server's bookkeeping; close() ends them itself.
  const upgraded = new Set<Duplex>();
  const onUpgrade = options.onUpgrade;
  if (onUpgrade) {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      upgraded.add(socket);
      socket.once('close', () => upgraded.delete(socket));
      onUpgrade(req, socket, head, registry);
    });
  }
  await listen(server, options.port, options.host ?? '127.0.0.1');
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    registry,
    metrics,
    async close() {
      lifecycle.stop();
      aggregator.stop();
      await eventTtl.stop();
      registry.close();
      server.closeAllConnections();
      for (const socket of upgraded) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

async function handle(req: IncomingMessage, res: ServerResponse, registry: ObjectRegistry, metrics: ApiMetrics, subresources: SubresourceHandlers): Promise<void> {
  const started = process.hrtime.bigint();
  const ctx: RequestContext = { req, res, query: new URLSearchParams(), registry, verb: (req.method ?? 'GET').toLowerCase(), user: ANONYMOUS_USER };
  let path: ResourcePath | undefined;
  try {
    const url = splitRequestTarget(req.url ?? '/');
    ctx.query = url.query;
    path = parseResourcePath(url.pathname);
    if (path) {
      await serveResource(ctx, path, findResource(path.group, path.version, path.plural), subresources);
    } else {
      await serveNonResource(decodePath(url.pathname), req, res, metrics, registry.store);
    }
  } catch (error) {
    const apiError = toApiError(error);
    // A deliberate answer (504 too large a revision) is no fault; the store's backend being down
    // (503) is expected in operation: one line, not a stack per request.
    if (apiError.code >= 500 && !(error instanceof ApiError)) {
      console.error(`${req.method} ${req.url}: ${apiError.code === 500 ? ((error as Error).stack ?? String(error)) : `${apiError.code} ${apiError.message}`}`);
    }
    writeError(res, apiError);
  } finally {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    metrics.observeRequest(ctx.verb, path?.plural ?? '', path?.subresource ?? '', res.statusCode, seconds);
  }
}

async function serveNonResource(pathname: string, req: IncomingMessage, res: ServerResponse, metrics: ApiMetrics, store: Store): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed(req.method ?? '');
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/healthz' || path === '/livez') return writeText(res, 200, 'ok');
  if (path === '/readyz') {
    // Ready only while the store answers (etcd reachable), as kube-apiserver's etcd readiness
    // check; liveness stays up, so an etcd outage does not restart every API server.
    await store.currentRevision();
    return writeText(res, 200, 'ok');
  }
  if (path === '/version') return writeJson(res, 200, SERVER_VERSION);
  if (path === '/metrics') {
    const { text, contentType } = await metrics.text();
    return writeText(res, 200, text, contentType);
  }
  if (path === '/api') return writeJson(res, 200, apiVersions());
  if (path === '/apis') return writeJson(res, 200, apiGroupList(resourceDefinitions));
  if (path === '/openapi/v2') return serveOpenApiV2(req, res);
  if (path === '/openapi/v3') return writeJson(res, 200, openApiV3Index());
  if (path.startsWith('/openapi/v3/')) {
    const document = openApiV3Serialized(path.slice('/openapi/v3/'.length));
    if (!document) throw pathNotFound(pathname);
    return writeText(res, 200, document.json, 'application/json');
  }
  const document = discoveryDocument(path);
  if (document) return writeJson(res, 200, document);
  throw pathNotFound(pathname);
}

/** kubectl only decodes OpenAPI v2 as protobuf; other clients get JSON. */
function serveOpenApiV2(req: IncomingMessage, res: ServerResponse): void {
  if ((req.headers.accept ?? '').includes('protobuf')) {
    const { body } = openApiV2Protobuf();
    res.writeHead(200, { 'Content-Type': OPENAPI_V2_PROTOBUF_TYPE, 'Content-Length': body.length });
    res.end(body);
    return;
  }
  writeText(res, 200, openApiV2Serialized().json, 'application/json');
}

function discoveryDocument(path: string): unknown {
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'api' && parts.length === 2) return apiResourceList(resourceDefinitions, '', parts[1]!);
  if (parts[0] !== 'apis') return undefined;
  if (parts.length === 2) return apiGroup(resourceDefinitions, parts[1]!);
  if (parts.length === 3) return apiResourceList(resourceDefinitions, parts[1]!, parts[2]!);
  return undefined;
}
