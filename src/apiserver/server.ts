// The API server: an HTTPS server on loopback that authenticates and authorizes every request
// (access.ts), routes Kubernetes REST paths to the handlers, serves discovery, OpenAPI, health
// and metrics, and answers every failure with a Status.
import './prototype-guard.js';
import type { ClusterNetwork } from '../api/cluster-network.js';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { findResource } from '../api/registry.js';
import type { ResourceDefinition } from '../api/resource.js';
import { OPENAPI_V2_PROTOBUF_TYPE, openApiV2, openApiV2Protobuf, openApiV2Serialized, openApiV3Index, openApiV3Serialized } from '../api/openapi/index.js';
import type { Store } from '../storage/store.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, SERVER_VERSION } from './discovery.js';
import { PROMETHEUS_TARGETS_PATH } from '../auth/components.js';
import { prometheusTargets } from './prometheus-targets.js';
import { ApiError, badRequest, methodNotAllowed, pathNotFound, toApiError } from './errors.js';
import type { RequestContext } from './handlers/context.js';
import { bindPod } from './handlers/pod-binding.js';
import { evictPod } from './handlers/pod-eviction.js';
import { serveResource, type SubresourceHandlers } from './handlers/resource-handler.js';
import { writeError, writeJson, writeText } from './http-io.js';
import { ApiMetrics, instrumentStore, requestLabels } from './metrics.js';
import { NamespaceLifecycle } from './namespace-lifecycle.js';
import { EventTtl } from './event-ttl.js';
import { ObjectRegistry } from './registry/object-registry.js';
import { decodePath, parseResourcePath, splitRequestTarget, type ResourcePath } from './routes.js';
import { ensureSystemNamespaces } from './bootstrap.js';
import { ensureSystemPriorityClasses } from './priority-classes.js';
import { ensureLocalPathStorageClass } from './storage-classes.js';
import { actingUser, authenticate, authorize, requestAttributes, type AccessControl } from './access.js';
import { refuseUpgrade } from './http-io.js';
import { RequestCohorts } from './request-cohorts.js';
import { ANONYMOUS_USER, type RequestAttributes, type UserInfo } from '../auth/types.js';
import type { PodSecurityLevel } from './admission/pod-security/policy.js';
import { Auditor, type AuditEntry, type AuditOptions } from './audit/auditor.js';
import type { ServingTls } from '../auth/cluster-security.js';
import type { RequestAuthenticator } from '../auth/authn/authenticator.js';
import type { ServiceAccountTokens } from '../auth/serviceaccount/tokens.js';
import type { CsrSigner } from '../auth/csr/controller.js';
import { ApiSecurity } from './api-security.js';
import { CustomResources } from './crd/custom-resources.js';
import { CrdController } from './crd/crd-controller.js';
import { ControllerCustomResourceAccess } from './crd/controller-access.js';
import { CustomResourceOpenApi } from './crd/openapi.js';
import { servedDefinition, servedDefinitions } from './crd/served-definitions.js';
import type { CustomResourceDefinitionInfo } from '../api/crd/custom-resource.js';
import { SERVING_TLS_OPTIONS } from './tls-settings.js';
import { isDashboardPath, serveDashboard } from './dashboard/static-files.js';
import { isWebSocketWatch, serveWatchOverWebSocket } from './handlers/watch-websocket.js';
import { AgentStats, type AgentStatsOptions } from './resource-metrics/agent-stats.js';
import { METRICS_GROUP, metricsGroup, metricsResourceList, serveResourceMetrics } from './resource-metrics/metrics-api.js';
import { POD_START_STAGES_PATH } from '../metrics/pod-start-stages.js';

export interface ApiServerOptions {
  store: Store;
  host?: string;
  /** 0 picks a free port. */
  port: number;
  subresources?: SubresourceHandlers;
  /** HTTP upgrades (pods/exec, attach, portforward: handlers/pod-proxy.ts); without it they get 400. Watches upgrade here too (handlers/watch-websocket.ts). */
  onUpgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer, registry: ObjectRegistry) => void;
  /** Events not bumped for this long are deleted (Kubernetes' --event-ttl). Default 3600. */
  eventTtlSeconds?: number;
  /** Pod Security level of namespaces without pod-security.kubernetes.io labels (kube-system aside). Default privileged. */
  podSecurityDefault?: PodSecurityLevel;
  /** Write an audit log (audit/auditor.ts); a bad policy file fails the start. */
  audit?: AuditOptions;
  /** The serving certificate and the CA client certificates must be signed by (PEM). */
  tls: ServingTls;
  authenticator: RequestAuthenticator;
  /**
   * Service-account tokens: serviceaccounts/token, their authenticator (added to `authenticator`),
   * the kube-api-access projection into pods and the kube-root-ca.crt ConfigMaps.
   */
  serviceAccounts?: ServiceAccountTokens;
  /**
   * The cluster CA, to approve and sign CertificateSigningRequests in this process (agents join
   * with them: src/auth/csr/). Without it requests stay pending.
   */
  signer?: CsrSigner;
  /** The cluster's address plan: Services' cluster IPs come from its service CIDR (default: clusterNetwork()). */
  network?: ClusterNetwork;
  /** Serve metrics.k8s.io (resource-metrics/), reading the agents' figures as logs are read. */
  resourceMetrics?: AgentStatsOptions;
}

export interface ApiServer {
  url: string;
  port: number;
  registry: ObjectRegistry;
  metrics: ApiMetrics;
  close(): Promise<void>;
}

export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  // First: a malformed policy must stop the server before it has started anything.
  const audit = options.audit ? await Auditor.open(options.audit) : undefined;
  const metrics = new ApiMetrics();
  const security = new ApiSecurity({
    store: options.store,
    authenticator: options.authenticator,
    caPem: options.tls.ca,
    ...(options.serviceAccounts ? { serviceAccounts: options.serviceAccounts } : {}),
    ...(options.signer ? { signer: options.signer } : {}),
  });
  const registry = new ObjectRegistry(instrumentStore(options.store, metrics), {
    podSecurityDefault: options.podSecurityDefault ?? 'privileged',
    ...(options.network ? { serviceRange: options.network } : {}),
    ...security.admission(),
  });
  const madeNamespaces = await ensureSystemNamespaces(registry);
  await ensureSystemPriorityClasses(registry);
  await ensureLocalPathStorageClass(registry, madeNamespaces.includes('kube-system'));
  const access = await security.start(registry);
  // Custom resources are served from the CRDs in the store, whichever server wrote them.
  const custom = new CustomResources(registry.store);
  const crdController = new CrdController(registry, custom);
  const controllerAccess = new ControllerCustomResourceAccess(registry, custom);
  await custom.start();
  controllerAccess.start();
  const namespaceDef = findResource('', 'v1', 'namespaces')!;
  const lifecycle = new NamespaceLifecycle(registry, () => servedDefinitions(custom, true), namespaceDef);
  await lifecycle.start();
  const eventTtl = new EventTtl(registry.store, findResource('', 'v1', 'events')!, { ttlSeconds: options.eventTtlSeconds });
  eventTtl.start();
  const subresources: SubresourceHandlers = new Map([
    ['/pods/binding', bindPod],
    ['/pods/eviction', evictPod],
    ...security.subresources(),
    ...(options.subresources ?? new Map()),
  ]);
  const serving: Serving = {
    registry,
    metrics,
    subresources,
    access,
    caPem: options.tls.ca,
    auditor: audit,
    custom,
    customOpenApi: new CustomResourceOpenApi(custom),
    resourceMetrics: options.resourceMetrics ? new AgentStats(registry, options.resourceMetrics) : undefined,
  };
  // Client certificates are asked for, not required: a request without one may still carry a
  // bearer token, and access.ts decides. Node verifies any that is sent against the cluster CA.
  const cohorts = new RequestCohorts();
  const server = createServer(
    { cert: options.tls.cert, key: options.tls.key, ca: options.tls.ca, requestCert: true, rejectUnauthorized: false, ...SERVING_TLS_OPTIONS },
    (req, res) => {
      const arrived = process.hrtime.bigint();
      cohorts.add(() => void handle(req, res, serving, arrived));
    },
  );
  server.keepAliveTimeout = 65_000;
  // Upgraded sockets leave the HTTP server's bookkeeping; close() ends them itself.
  const upgraded = new Set<Duplex>();
  const onUpgrade = options.onUpgrade;
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    void admitUpgrade(access, req).then(
      ({ asked, user }) => {
        audit?.beginUpgrade(req, socket, asked, user); // --- audit: the upgraded stream (exec, attach, portforward, watch) ---
        const url = splitRequestTarget(req.url ?? '/');
        const path = parseResourcePath(url.pathname);
        if (isWebSocketWatch(req, path, url.query)) {
          // Custom resources are watched over WebSocket too (the dashboard lists them).
          const def = servedDefinition(custom, path.group, path.version, path.plural);
          serveWatchOverWebSocket(req, socket, head, ({ req: streamReq, res }) =>
            serveResource({ req: streamReq, res, query: url.query, registry, verb: 'watch', user, access }, path, def, subresources),
          );
        } else if (onUpgrade) {
          onUpgrade(req, socket, head, registry);
        } else {
          refuseUpgrade(socket, badRequest('Upgrade request required'));
        }
      },
      (error: unknown) => refuseUpgrade(socket, toApiError(error)),
    );
  });
  await listen(server, options.port, options.host ?? '127.0.0.1');
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://${urlHost(options.host ?? '127.0.0.1')}:${port}`,
    port,
    registry,
    metrics,
    async close() {
      lifecycle.stop();
      crdController.stop();
      controllerAccess.stop();
      custom.stop();
      await security.stop();
      await eventTtl.stop();
      registry.close();
      server.closeAllConnections();
      for (const socket of upgraded) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Last: the events of the requests just ended (watches) are written before it closes.
      await audit?.close();
    },
  };
}

/**
 * The upgrade path's access check, the same as handle()'s, for exec, attach and port-forward:
 * what the sender asks (for the audit log) and who it acts as.
 */
async function admitUpgrade(access: AccessControl, req: IncomingMessage): Promise<{ asked: RequestAttributes; user: UserInfo }> {
  const url = splitRequestTarget(req.url ?? '/');
  const path = parseResourcePath(url.pathname);
  const pathname = path ? url.pathname : decodePath(url.pathname);
  const sender = await authenticate(access, req, pathname, path);
  const asked = requestAttributes(sender, req.method ?? 'GET', pathname, path, url.query);
  const user = actingUser(access, req, sender);
  authorize(access, { ...asked, user });
  return { asked, user };
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
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

interface Serving {
  registry: ObjectRegistry;
  metrics: ApiMetrics;
  subresources: SubresourceHandlers;
  access: AccessControl;
  caPem: string;
  auditor: Auditor | undefined;
  custom: CustomResources;
  customOpenApi: CustomResourceOpenApi;
  resourceMetrics: AgentStats | undefined;
}

/** `arrived`: when the request was read (process.hrtime.bigint()); its duration counts from then, the wait for its cohort included. */
async function handle(req: IncomingMessage, res: ServerResponse, serving: Serving, arrived: bigint): Promise<void> {
  const { registry, metrics } = serving;
  const ctx: RequestContext = {
    req,
    res,
    query: new URLSearchParams(),
    registry,
    verb: (req.method ?? 'GET').toLowerCase(),
    user: ANONYMOUS_USER,
    access: serving.access,
  };
  let audit: AuditEntry | undefined;
  let path: ResourcePath | undefined;
  /** The path names a served resource: only then do the request metrics carry its group, version and resource. */
  let served = false;
  try {
    const url = splitRequestTarget(req.url ?? '/');
    ctx.query = url.query;
    path = parseResourcePath(url.pathname);
    const pathname = path ? url.pathname : decodePath(url.pathname);
    // The dashboard's files hold no data: they are served to anyone (static-files.ts).
    if (!path && isDashboardPath(url.pathname)) return await serveDashboard(req, res, url.pathname);
    const authenticated = authenticate(serving.access, req, pathname, path);
    const sender = authenticated instanceof Promise ? await authenticated : authenticated;
    const asked = requestAttributes(sender, req.method ?? 'GET', pathname, path, url.query);
    ctx.user = sender;
    // --- audit: after authentication (the policy matches on the sender), before impersonation and authorization (a 403 is recorded) ---
    audit = serving.auditor?.begin(ctx, asked);
    ctx.user = actingUser(serving.access, req, sender);
    if (ctx.user !== sender) audit?.impersonated(ctx.user);
    authorize(serving.access, ctx.user === sender ? asked : { ...asked, user: ctx.user });
    if (path?.group === METRICS_GROUP && serving.resourceMetrics) {
      served = true;
      await serveResourceMetrics(ctx, path, serving.resourceMetrics);
    } else if (path) {
      const def = servedDefinition(serving.custom, path.group, path.version, path.plural);
      served = def !== undefined;
      const custom = def as Partial<CustomResourceDefinitionInfo> | undefined;
      // Every request to a deprecated custom resource version is told so, as Kubernetes does.
      if (custom?.deprecationWarning) res.setHeader('Warning', [`299 - ${JSON.stringify(custom.deprecationWarning)}`]);
      if (custom?.terminating && req.method === 'POST') {
        throw new ApiError(405, 'MethodNotAllowed', 'create not allowed while custom resource definition is terminating');
      }
      await serveResource(ctx, path, def, serving.subresources);
    } else {
      await serveNonResource(pathname, req, res, serving);
    }
  } catch (error) {
    const apiError = toApiError(error);
    // A deliberate answer (504 too large a revision) is no fault; the store's backend being down
    // (503) is expected in operation: one line, not a stack per request.
    if (apiError.code >= 500 && !(error instanceof ApiError)) {
      console.error(`${req.method} ${req.url}: ${apiError.code === 500 ? ((error as Error).stack ?? String(error)) : `${apiError.code} ${apiError.message}`}`);
    }
    audit?.fail(apiError, apiError.code === 500 && !(error instanceof ApiError)); // --- audit ---
    writeError(res, apiError);
  } finally {
    audit?.end(res); // --- audit ---
    const seconds = Number(process.hrtime.bigint() - arrived) / 1e9;
    // Labels from what the server serves, never from any path a client makes up (series without
    // bound): a subresource answered 404 may be one made up, so it labels nothing.
    const labelled = served && !(path?.subresource && res.statusCode === 404);
    metrics.observeRequest(
      requestLabels(req.method ?? 'GET', ctx.verb, req.headers['content-type'], ctx.query.has('dryRun'), labelled ? path : undefined),
      res.statusCode,
      seconds,
    );
  }
}

async function serveNonResource(pathname: string, req: IncomingMessage, res: ServerResponse, serving: Serving): Promise<void> {
  const { metrics, caPem } = serving;
  const store = serving.registry.store;
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
  if (path === '/cacerts') return writeText(res, 200, caPem, 'application/x-pem-file');
  if (path === '/metrics') {
    const { text, contentType } = await metrics.text();
    return writeText(res, 200, text, contentType);
  }
  if (path === POD_START_STAGES_PATH) return writeJson(res, 200, { items: await metrics.podStartRecords() });
  if (path.startsWith(`${PROMETHEUS_TARGETS_PATH}/`)) return writeJson(res, 200, await prometheusTargets(path, serving.registry));
  if (path === '/api') return writeJson(res, 200, apiVersions());
  const defs = servedDefinitions(serving.custom);
  if (path === '/apis') {
    const list = apiGroupList(defs);
    return writeJson(res, 200, serving.resourceMetrics ? { ...list, groups: [...list.groups, metricsGroup()] } : list);
  }
  if (path === '/openapi/v2') return serveOpenApiV2(req, res, serving.customOpenApi);
  if (path === '/openapi/v3') {
    const index = openApiV3Index();
    return writeJson(res, 200, { paths: { ...index.paths, ...serving.customOpenApi.indexEntries() } });
  }
  if (path.startsWith('/openapi/v3/')) {
    const groupVersion = path.slice('/openapi/v3/'.length);
    const document = openApiV3Serialized(groupVersion) ?? serving.customOpenApi.document(groupVersion);
    if (!document) throw pathNotFound(pathname);
    return writeText(res, 200, document.json, 'application/json');
  }
  const document = discoveryDocument(path, defs, serving.resourceMetrics !== undefined);
  if (document) return writeJson(res, 200, document);
  throw pathNotFound(pathname);
}

/** kubectl only decodes OpenAPI v2 as protobuf; other clients get JSON. Custom resources are added while there are any. */
function serveOpenApiV2(req: IncomingMessage, res: ServerResponse, custom: CustomResourceOpenApi): void {
  const withCustom = custom.openApiV2(openApiV2() as Record<string, unknown>);
  if ((req.headers.accept ?? '').includes('protobuf')) {
    const body = withCustom?.protobuf ?? openApiV2Protobuf().body;
    res.writeHead(200, { 'Content-Type': OPENAPI_V2_PROTOBUF_TYPE, 'Content-Length': body.length });
    res.end(body);
    return;
  }
  writeText(res, 200, withCustom?.json ?? openApiV2Serialized().json, 'application/json');
}

function discoveryDocument(path: string, defs: readonly ResourceDefinition[], servesMetrics: boolean): unknown {
  const parts = path.split('/').filter(Boolean);
  if (servesMetrics && parts[0] === 'apis' && parts[1] === METRICS_GROUP) {
    if (parts.length === 2) return { kind: 'APIGroup', apiVersion: 'v1', ...metricsGroup() };
    if (parts.length === 3 && parts[2] === 'v1beta1') return metricsResourceList();
    return undefined;
  }
  if (parts[0] === 'api' && parts.length === 2) return apiResourceList(defs, '', parts[1]!);
  if (parts[0] !== 'apis') return undefined;
  if (parts.length === 2) return apiGroup(defs, parts[1]!);
  if (parts.length === 3) return apiResourceList(defs, parts[1]!, parts[2]!);
  return undefined;
}
