// `drover controller-manager` and `drover scheduler`: one part of the control plane in a process
// of its own, against an API server it reaches as any client does (as kube-controller-manager and
// kube-scheduler run beside kube-apiserver). The CLI parses their flags; this composes them.
import { hostname } from 'node:os';
import { ApiClient } from '../client/index.js';
import { startControllers } from './controller-manager.js';
import { schedulerLeaseName, startSchedulerGate } from './scheduler.js';

export interface StandaloneClient {
  /** Default: $KUBECONFIG, then ~/.kube/config. */
  kubeconfig?: string | undefined;
  /** Overrides the kubeconfig's server. */
  server?: string | undefined;
}

export interface Standalone {
  /** This process's name in the farm and in the leader Leases. */
  identity: string;
  stop(): Promise<void>;
}

/** Unique among the processes of a cluster: two members of one name would take each other's Leases. */
function processIdentity(): string {
  return `${hostname()}-${process.pid}`;
}

function loadClient(client: StandaloneClient, userAgent: string): Promise<ApiClient> {
  return ApiClient.load(
    { ...(client.kubeconfig ? { kubeconfig: client.kubeconfig } : {}), ...(client.server ? { server: client.server } : {}) },
    { userAgent },
  );
}

export async function runControllerManager(options: {
  client: StandaloneClient;
  identity?: string | undefined;
  shards: number;
  /** The cluster's pod CIDR, which node IPAM splits into the Nodes' ranges. */
  clusterCidr: string;
  hpaSyncPeriodSeconds: number;
  /** Serve /metrics on this port (none when unset). */
  metricsPort?: number | undefined;
}): Promise<Standalone & { metricsUrl: string | undefined }> {
  const api = await loadClient(options.client, 'drover-controller-manager');
  const identity = options.identity ?? processIdentity();
  const controllers = await startControllers({
    api,
    identity,
    farm: { shards: options.shards },
    podCidr: options.clusterCidr,
    settings: { hpaSyncPeriodMs: options.hpaSyncPeriodSeconds * 1000 },
  });
  const metrics = options.metricsPort === undefined ? undefined : await (await import('../metrics/metrics-server.js')).serveMetrics(options.metricsPort);
  return {
    identity,
    metricsUrl: metrics?.url,
    async stop() {
      await controllers.stop();
      await metrics?.close();
      api.close();
    },
  };
}

/** Several schedulers of one name stand by for one another: only the holder of `leaseName` schedules. */
export async function runScheduler(options: { client: StandaloneClient; schedulerName: string }): Promise<Standalone & { leaseName: string }> {
  const api = await loadClient(options.client, 'drover-scheduler');
  const identity = processIdentity();
  const scheduler = startSchedulerGate({ api, identity, schedulerName: options.schedulerName });
  return {
    identity,
    leaseName: schedulerLeaseName(options.schedulerName),
    async stop() {
      await scheduler.stop();
      api.close();
    },
  };
}
