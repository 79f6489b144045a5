// `drover server`: the API server on an SQLite store in a data directory, or on etcd.
import { chmod } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { handlePodUpgrade, podProxySubresources } from '../apiserver/handlers/pod-proxy.js';
import { startApiServer, type ApiServer, type ApiServerOptions } from '../apiserver/server.js';
import { startServerDataChecker, type DataCheckOptions } from '../checker/server-checker.js';
import { prepareDataDir } from '../util/data-dir.js';
import { openSqliteStore } from '../storage/sqlite/sqlite-store.js';
import type { Store } from '../storage/store.js';
import type { StoreProbe } from '../checker/store-check.js';
import type { ControlPlaneOptions } from './control-plane.js';
import { startControlPlaneThread, type ControlPlaneThread } from './control-plane-thread.js';
import { writeKubeconfig } from './kubeconfig.js';
import { DEFAULT_LEADER_TIMING, SOLO_LEADER_TIMING } from './leader-gate.js';
import { startServerRegistration, type ServerRegistration } from './server-registration.js';
import { ApiClient } from '../client/index.js';

export interface ServerOptions {
  dataDir: string;
  port: number;
  host?: string;
  /** How many revisions of watch history to keep (older watches get 410 Expired); SQLite only. */
  watchHistory?: number;
  /** Keep state in etcd instead of SQLite; several servers may share it. */
  etcd?: EtcdServerOptions;
  /** Run the scheduler and controllers in this process, on their own thread (default true). */
  controlPlane?: boolean;
  /** How long Events are kept (default one hour, as kube-apiserver's --event-ttl). */
  eventTtlSeconds?: number;
  nodeLifecycle?: ControlPlaneOptions['nodeLifecycle'];
  /** The data checker, which runs with the control plane (default: every 1200 s, repairs that change objects off). */
  dataCheck?: DataCheckOptions;
  /** Write an audit log (kube-apiserver's --audit-log-path and --audit-policy-file). */
  audit?: ApiServerOptions['audit'];
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
}

export interface RunningServer {
  api: ApiServer;
  store: Store;
  /** The data directory, absolute. */
  dataDir: string;
  kubeconfigPath: string;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const dataDir = await prepareDataDir(options.dataDir);
  // It holds the store (every Secret) and the admin kubeconfig: its owner's only.
  await chmod(dataDir, 0o700);
  const probe = await openStore(options, dataDir);
  const { store } = probe;
  let api: ApiServer;
  try {
    const apiOptions: ApiServerOptions = { store, port: options.port, subresources: podProxySubresources(), onUpgrade: handlePodUpgrade };
    if (options.host !== undefined) apiOptions.host = options.host;
    if (options.eventTtlSeconds !== undefined) apiOptions.eventTtlSeconds = options.eventTtlSeconds;
    if (options.audit) apiOptions.audit = options.audit;
    api = await startApiServer(apiOptions);
  } catch (error) {
    await store.close();
    throw error;
  }
  const kubeconfigPath = join(dataDir, 'kubeconfig');
  await writeKubeconfig(kubeconfigPath, api.url);
  // On a store several servers share, each publishes itself for the `kubernetes` Endpoints.
  const registrationApi = store.shared ? new ApiClient(api.url, { userAgent: 'drover-apiserver' }) : undefined;
  let registration: ServerRegistration | undefined;
  if (registrationApi) registration = await startServerRegistration({ api: registrationApi, address: { ip: advertisedIp(options.host), port: api.port } });
  let controlPlane: ControlPlaneThread | undefined;
  let dataChecker: Awaited<ReturnType<typeof startServerDataChecker>> | undefined;
  if (options.controlPlane !== false) {
    // Standbys exist only where servers share a store: there, take over fast; alone, renew seldom.
    const leaderTiming = store.shared ? DEFAULT_LEADER_TIMING : SOLO_LEADER_TIMING;
    const controlOptions: ControlPlaneOptions = { server: api.url, leaderTiming };
    if (options.nodeLifecycle) controlOptions.nodeLifecycle = options.nodeLifecycle;
    controlPlane = await startControlPlaneThread(controlOptions);
    // The scheduler's and the controllers' metrics live on that thread: /metrics asks for them.
    const thread = controlPlane;
    api.metrics.addComponentSource(() => thread.metrics());
    // On this thread, not the control plane's: its store check needs the store.
    const identity = `server-${hostname()}-${api.port}`;
    dataChecker = await startServerDataChecker({ url: api.url, identity, store: probe, options: options.dataCheck ?? {} });
  }
  return {
    api,
    store,
    dataDir,
    kubeconfigPath,
    async close() {
      await registration?.stop();
      registrationApi?.close();
      await dataChecker?.stop();
      await controlPlane?.stop();
      await api.close();
      await store.close();
    },
  };
}

/** The store the options name, with what the data checker may probe of it. */
async function openStore(options: ServerOptions, dataDir: string): Promise<StoreProbe> {
  if (options.etcd !== undefined) {
    // Loaded only here: a server on SQLite never loads the gRPC client.
    const { openEtcdStore } = await import('../storage/etcd/etcd-store.js');
    const { endpoints, keyPrefix, compactionIntervalSeconds, requestTimeoutSeconds } = options.etcd;
    const store = await openEtcdStore({
      endpoints,
      ...(keyPrefix === undefined ? {} : { keyPrefix }),
      ...(compactionIntervalSeconds === undefined ? {} : { compactIntervalMs: compactionIntervalSeconds * 1000 }),
      ...(requestTimeoutSeconds === undefined ? {} : { requestTimeoutMs: requestTimeoutSeconds * 1000 }),
    });
    return { store };
  }
  const storeOptions: Parameters<typeof openSqliteStore>[0] = { path: join(dataDir, 'state.db') };
  if (options.watchHistory !== undefined) storeOptions.historyWindow = options.watchHistory;
  const store = await openSqliteStore(storeOptions);
  return { store, quickCheck: () => store.quickCheck() };
}

/** The address other machines' clients use: the listening one, or loopback for a wildcard. */
function advertisedIp(host: string | undefined): string {
  return host === undefined || host === '' || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
}
