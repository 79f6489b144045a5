// The control-plane components that run beside the API server in `drover server` and `drover up`
// (alone: `drover scheduler` and `drover controller-manager`, composed from the same parts in
// scheduler.ts and controller-manager.ts): each is an ordinary API client, as in Kubernetes.
import { hostname } from 'node:os';
import { ApiClient, type TlsConfig } from '../client/index.js';
import { controllerInformers } from '../controllers/manager.js';
import type { ControllerSettings } from '../controllers/context.js';
import type { NodeLifecycleConfig } from '../controllers/node-lifecycle.js';
import { DEFAULT_POD_CIDR } from '../api/cluster-network.js';
import { startControllers } from './controller-manager.js';
import type { LeaderTiming } from './leader-gate.js';
import { startSchedulerGate } from './scheduler.js';

export interface ControlPlaneOptions {
  /** The API server's URL. */
  server: string;
  /** Each component's own client certificate (and the CA), as PEM: they cross to the worker thread. */
  credentials: { scheduler: TlsConfig; controllers: TlsConfig };
  /** Timeouts of the node lifecycle controller (unreachable after 40 s, pods evicted after 60 s). */
  nodeLifecycle?: Pick<NodeLifecycleConfig, 'gracePeriodSeconds' | 'podEvictionTimeoutSeconds'>;
  /** Timing of the scheduler's and node lifecycle's leader Leases (default DEFAULT_LEADER_TIMING). */
  leaderTiming?: LeaderTiming;
  /** The cluster's pod CIDR, which node IPAM splits into the Nodes' ranges (default DEFAULT_POD_CIDR). */
  podCidr?: string;
  /** Tunables of single controllers (--horizontal-pod-autoscaler-sync-period). */
  controllerSettings?: ControllerSettings;
}

export interface ControlPlane {
  stop(): Promise<void>;
}

export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const schedulerApi = new ApiClient(
    { server: options.server, namespace: 'default', tls: asBuffers(options.credentials.scheduler) },
    { userAgent: 'drover-scheduler' },
  );
  const controllerApi = new ApiClient(
    { server: options.server, namespace: 'default', tls: asBuffers(options.credentials.controllers) },
    { userAgent: 'drover-controller-manager' },
  );
  // One informer per kind for the scheduler and the controllers: every pod is watched, parsed
  // and cached once in this process, not twice.
  const informers = controllerInformers(controllerApi);
  // The embedded manager joins the controller farm under a name that survives restarts, so a
  // restarted server takes its shards back at once and `drover controller-manager` processes
  // started beside it share the work safely.
  const identity = `server-${hostname()}-${new URL(options.server.split(',')[0]!).port}`;
  const timing = options.leaderTiming;
  const scheduler = startSchedulerGate({ api: schedulerApi, identity, informers, timing });
  // The farm's shard Leases follow the same timing, so a dead server's shards move as fast.
  const farm =
    timing === undefined
      ? {}
      : {
          leaseDurationSeconds: Math.ceil(timing.leaseDurationMs / 1000),
          renewDeadlineMs: timing.renewDeadlineMs,
          retryPeriodMs: timing.retryPeriodMs,
        };
  const controllers = await startControllers({
    api: controllerApi,
    identity,
    informers,
    farm,
    leaderTiming: timing,
    podCidr: options.podCidr ?? DEFAULT_POD_CIDR,
    nodeLifecycle: options.nodeLifecycle,
    settings: options.controllerSettings,
  });
  return {
    async stop() {
      await Promise.all([scheduler.stop(), controllers.stop()]);
      await informers.stop();
      schedulerApi.close();
      controllerApi.close();
    },
  };
}

/** Buffers arrive from another thread as plain Uint8Arrays. */
function asBuffers(tls: TlsConfig): TlsConfig {
  const out: TlsConfig = {};
  if (tls.ca) out.ca = Buffer.from(tls.ca);
  if (tls.cert) out.cert = Buffer.from(tls.cert);
  if (tls.key) out.key = Buffer.from(tls.key);
  return out;
}
