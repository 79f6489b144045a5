// `drover server`: the API server on an SQLite store in a data directory, or on etcd.
import { chmod } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { podProxySubresources, podUpgradeHandler } from '../apiserver/handlers/pod-proxy.js';
import { APISERVER_AGENT_CLIENT } from '../apiserver/handlers/agent-dial.js';
import { startApiServer, type ApiServer, type ApiServerOptions } from '../apiserver/server.js';
import { startServerDataChecker, type DataCheckOptions } from '../checker/server-checker.js';
import { prepareDataDir } from '../util/data-dir.js';
import { openSqliteStore } from '../storage/sqlite/sqlite-store.js';
import type { Store } from '../storage/store.js';
import { loadEncryptionConfig } from '../storage/encryption/config.js';
import { ValueTransformer } from '../storage/encryption/transformer.js';
import type { StoreProbe } from '../checker/store-check.js';
import type { ControlPlaneOptions } from './control-plane.js';
import { startControlPlaneThread, type ControlPlaneThread } from './control-plane-thread.js';
import { writeKubeconfig } from './kubeconfig.js';
import { DEFAULT_LEADER_TIMING, SOLO_LEADER_TIMING } from './leader-gate.js';
import { startServerRegistration, type ServerRegistration } from './server-registration.js';
import { clusterNetwork, kubernetesServiceIP, type ClusterNetwork } from '../api/cluster-network.js';
import { ADMIN_SUBJECT, clusterSecurity, type ClusterSecurity } from '../auth/cluster-security.js';
import { MASTERS_GROUP } from '../auth/components.js';
import { CONTROLLER_MANAGER_SUBJECT, DATA_CHECKER_USER, SCHEDULER_SUBJECT } from '../auth/components.js';
import { loadTokenFile } from '../auth/authn/token-file.js';
import { loadClusterPki } from '../auth/pki/cluster-pki.js';
import type { Subject } from '../auth/pki/certificates.js';
import { sharedCaIn, sharedServiceAccountKeyIn } from '../auth/pki/shared-ca.js';
import { loadSigningKey } from '../auth/serviceaccount/signing-key.js';
import { ServiceAccountTokens } from '../auth/serviceaccount/tokens.js';
import { serverTokenSecret, writeServerToken } from '../auth/join-token.js';
import { bootstrapTokenAuthenticator } from '../auth/authn/bootstrap-token.js';
import { loadDashboardToken, type DashboardToken } from '../auth/authn/dashboard-token.js';
import { ApiClient } from '../client/index.js';
import type { OnStartPhase } from './start-phases.js';

export interface ServerOptions {
  dataDir: string;
  port: number;
  host?: string;
  /** More names and addresses the serving certificate covers (--tls-san). */
  tlsSans?: string[];
  /** Static bearer tokens (--token-auth-file, Kubernetes' CSV format). */
  tokenAuthFile?: string;
  /** The join token's secret (--token); servers sharing a store must share it. Default: made at first start. */
  token?: string;
  /** How many revisions of watch history to keep (older watches get 410 Expired); SQLite only. */
  watchHistory?: number;
  /** Keep state in etcd instead of SQLite; several servers may share it. */
  etcd?: EtcdServerOptions;
  /** Run the scheduler and controllers in this process, on their own thread (default true). */
  controlPlane?: boolean;
  /** How long Events are kept (default one hour, as kube-apiserver's --event-ttl). */
  eventTtlSeconds?: number;
  nodeLifecycle?: ControlPlaneOptions['nodeLifecycle'];
  /** Tunables of single controllers (--horizontal-pod-autoscaler-sync-period). */
  controllerSettings?: ControlPlaneOptions['controllerSettings'];
  /** The data checker, which runs with the control plane (default: every 1200 s, repairs that change objects off). */
  dataCheck?: DataCheckOptions;
  /** Pod Security level of namespaces without pod-security.kubernetes.io labels (default privileged). */
  podSecurityDefault?: ApiServerOptions['podSecurityDefault'];
  /** Kubernetes' EncryptionConfiguration file (--encryption-provider-config): resources encrypted at rest. */
  encryptionProviderConfig?: string;
  /** Write an audit log (kube-apiserver's --audit-log-path and --audit-policy-file). */
  audit?: ApiServerOptions['audit'];
  /** The cluster's address plan (--cluster-cidr, --service-cidr, ...); the rest from the defaults. */
  network?: Partial<ClusterNetwork>;
  /** Told as each step of the start begins (serverPhases()). */
  onPhase?: OnStartPhase;
}

export interface EtcdServerOptions {
  /** Client URLs of the members. */
  endpoints: string[];
  /** Put before every key, to keep clusters apart in one etcd. Default ''. */
  keyPrefix?: string;
  /** Seconds between compactions (kube-apiserver's --etcd-compaction-interval); 0 = never. Default 300. */
  compactionIntervalSeconds?: number;
  /** Seconds one etcd call may take before the request fails with 503. Default 5. */
  requestTimeoutSeconds?: number;
  /** Serve lists from a watch cache per resource (kube-apiserver's --watch-cache). Default true. */
  watchCache?: boolean;
}

export interface RunningServer {
  api: ApiServer;
  store: Store;
  /** The data directory, absolute. */
  dataDir: string;
  kubeconfigPath: string;
  /** The file holding the join token agents start with (`drover agent --token`). */
  tokenFile: string;
  /** The dashboard's address and the admin's sign-in token (print the token only to the admin: dashboardLine). */
  dashboard: Pick<DashboardToken, 'token' | 'path'>;
  security: ClusterSecurity;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  // First: a plan that does not hold together stops the start before anything is written.
  const network = clusterNetwork(options.network);
  const phase: OnStartPhase = options.onPhase ?? (() => {});
  phase('store');
  const dataDir = await prepareDataDir(options.dataDir);
  // It holds the store (every Secret) and the admin kubeconfig: its owner's only.
  await chmod(dataDir, 0o700);
  const probe = await openStore(options, dataDir);
  const { store } = probe;
  let api: ApiServer;
  let security: ClusterSecurity;
  let tokenFile: string;
  let dashboard: DashboardToken;
  try {
    phase('security');
    const secret = await serverTokenSecret(dataDir, options.token);
    const pki = await loadClusterPki({ dataDir, altNames: servingNames(options, network), ...(store.shared ? { sharedCa: sharedCaIn(store, secret) } : {}) });
    tokenFile = await writeServerToken(dataDir, { caHash: pki.caHash, secret });
    dashboard = await loadDashboardToken(dataDir, { username: ADMIN_SUBJECT.commonName, groups: ADMIN_SUBJECT.organizations ?? [] });
    const tokens = [bootstrapTokenAuthenticator(secret), dashboard.authenticator, ...(options.tokenAuthFile ? [loadTokenFile(options.tokenAuthFile)] : [])];
    // Service-account tokens outlive restarts and are good at every server of a shared store.
    const signingKey = await loadSigningKey(join(dataDir, 'tls'), store.shared ? sharedServiceAccountKeyIn(store, secret) : undefined);
    security = clusterSecurity(pki, new ServiceAccountTokens(signingKey), tokens);
    // Agents serve logs, exec and port-forward over TLS and take only this client certificate
    // (and the data checker's): src/apiserver/handlers/agent-dial.ts.
    const agentTls = await security.clientTls({ commonName: APISERVER_AGENT_CLIENT });
    const apiOptions: ApiServerOptions = {
      store,
      port: options.port,
      subresources: podProxySubresources(agentTls),
      onUpgrade: podUpgradeHandler(agentTls),
      tls: security.tls,
      authenticator: security.authenticator,
      serviceAccounts: security.serviceAccounts,
      signer: pki,
      network,
      resourceMetrics: { tls: agentTls },
    };
    if (options.host !== undefined) apiOptions.host = options.host;
    if (options.eventTtlSeconds !== undefined) apiOptions.eventTtlSeconds = options.eventTtlSeconds;
    if (options.podSecurityDefault !== undefined) apiOptions.podSecurityDefault = options.podSecurityDefault;
    if (options.audit) apiOptions.audit = options.audit;
    phase('api');
    api = await startApiServer(apiOptions);
  } catch (error) {
    await store.close();
    throw error;
  }
  const kubeconfigPath = join(dataDir, 'kubeconfig');
  await writeKubeconfig(kubeconfigPath, api.url, await security.clientTls(ADMIN_SUBJECT));
  // Each component is a client of its own, under its own name (RBAC grants each what it needs).
  const clientOf = (subject: Subject, userAgent: string) => clientAs(api.url, security, subject, userAgent);
  // The server's own writes go through its loopback client (system:apiserver, a superuser), as
  // kube-apiserver's do. Each publishes itself for the `kubernetes` Endpoints (pods reach the API
  // through that Service) and keeps the system Services (server-registration.ts). Alone on its
  // store it renews seldom, as kube-apiserver's lease reconciler does (15 s, every 10 s); where
  // servers share one, fast, so the Endpoints drop a dead server within seconds.
  const systemApi = await clientOf({ commonName: 'system:apiserver', organizations: [MASTERS_GROUP] }, 'drover-apiserver');
  let registration: ServerRegistration | undefined;
  try {
    phase('registration');
    registration = await startServerRegistration({
      api: systemApi,
      address: { ip: advertisedIp(options.host), port: api.port },
      network,
      ...(store.shared ? {} : { leaseDurationSeconds: 15, renewIntervalMs: 10_000 }),
    });
  } catch (error) {
    systemApi.close();
    await api.close();
    await store.close();
    throw error;
  }
  let controlPlane: ControlPlaneThread | undefined;
  let dataChecker: Awaited<ReturnType<typeof startServerDataChecker>> | undefined;
  if (options.controlPlane !== false) {
    phase('control-plane');
    // Standbys exist only where servers share a store: there, take over fast; alone, renew seldom.
    const leaderTiming = store.shared ? DEFAULT_LEADER_TIMING : SOLO_LEADER_TIMING;
    const controlOptions: ControlPlaneOptions = {
      server: api.url,
      leaderTiming,
      podCidr: network.podCidr,
      credentials: { scheduler: await security.clientTls(SCHEDULER_SUBJECT), controllers: await security.clientTls(CONTROLLER_MANAGER_SUBJECT) },
    };
    if (options.nodeLifecycle) controlOptions.nodeLifecycle = options.nodeLifecycle;
    if (options.controllerSettings) controlOptions.controllerSettings = options.controllerSettings;
    controlPlane = await startControlPlaneThread(controlOptions);
    // The scheduler's and the controllers' metrics live on that thread: /metrics asks for them.
    const thread = controlPlane;
    api.metrics.addComponentSource(() => thread.metrics());
    api.metrics.addPodStartSource(() => thread.podStartStages());
    // On this thread, not the control plane's: its store check needs the store.
    const identity = `server-${hostname()}-${api.port}`;
    const checkerApi = await clientOf({ commonName: DATA_CHECKER_USER }, 'drover-data-checker');
    dataChecker = await startServerDataChecker({ api: checkerApi, identity, store: probe, options: options.dataCheck ?? {} });
  }
  return {
    api,
    store,
    dataDir,
    kubeconfigPath,
    tokenFile,
    dashboard: { token: dashboard.token, path: dashboard.path },
    security,
    async close() {
      await registration?.stop();
      systemApi.close();
      await dataChecker?.stop();
      await controlPlane?.stop();
      await api.close();
      await store.close();
    },
  };
}

/** A client of the server at `url` under its own certificate for `subject` (a component, a node). */
export async function clientAs(url: string, security: ClusterSecurity, subject: Subject, userAgent: string): Promise<ApiClient> {
  return new ApiClient({ server: url, namespace: 'default', tls: await security.clientTls(subject) }, { userAgent });
}

/** The store the options name, with what the data checker may probe of it. */
async function openStore(options: ServerOptions, dataDir: string): Promise<StoreProbe> {
  // A config that cannot be used stops the start here, before any value is written.
  const path = options.encryptionProviderConfig;
  const transformer = path === undefined ? undefined : new ValueTransformer(loadEncryptionConfig(path));
  if (options.etcd !== undefined) {
    // Loaded only here: a server on SQLite never loads the gRPC client.
    const { openEtcdStore } = await import('../storage/etcd/etcd-store.js');
    const { endpoints, keyPrefix, compactionIntervalSeconds, requestTimeoutSeconds, watchCache } = options.etcd;
    const store = await openEtcdStore({
      endpoints,
      ...(keyPrefix === undefined ? {} : { keyPrefix }),
      ...(compactionIntervalSeconds === undefined ? {} : { compactIntervalMs: compactionIntervalSeconds * 1000 }),
      ...(requestTimeoutSeconds === undefined ? {} : { requestTimeoutMs: requestTimeoutSeconds * 1000 }),
      ...(watchCache === undefined ? {} : { watchCache }),
      ...(transformer === undefined ? {} : { transformer }),
    });
    return { store };
  }
  const storeOptions: Parameters<typeof openSqliteStore>[0] = { path: join(dataDir, 'state.db') };
  if (options.watchHistory !== undefined) storeOptions.historyWindow = options.watchHistory;
  if (transformer !== undefined) storeOptions.transformer = transformer;
  const store = await openSqliteStore(storeOptions);
  return { store, quickCheck: () => store.quickCheck() };
}

/**
 * What the serving certificate covers: loopback, this machine's name, the listening address, the
 * `kubernetes` Service's names and cluster IP (pods reach the API there), and --tls-san.
 */
function servingNames(options: ServerOptions, network: ClusterNetwork): string[] {
  const names = [
    'localhost',
    '127.0.0.1',
    '::1',
    hostname().toLowerCase(),
    kubernetesServiceIP(network),
    'kubernetes',
    'kubernetes.default',
    'kubernetes.default.svc',
    `kubernetes.default.svc.${network.clusterDomain}`,
  ];
  if (options.host && options.host !== '0.0.0.0' && options.host !== '::') names.push(options.host);
  return [...new Set([...names, ...(options.tlsSans ?? [])])];
}

/** The address other machines' clients use: the listening one, or loopback for a wildcard. */
function advertisedIp(host: string | undefined): string {
  return host === undefined || host === '' || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
}
