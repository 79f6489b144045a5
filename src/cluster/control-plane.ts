// The control-plane components that run beside the API server in `drover server` and `drover up`
// (and alone as `drover scheduler`): each is an ordinary API client, as in Kubernetes.
import { hostname } from 'node:os';
import { ApiClient, type TlsConfig } from '../client/index.js';
import { allControllers } from '../controllers/all.js';
import { controllerInformers, startControllerManager, type RunningControllerManager } from '../controllers/manager.js';
import type { ControllerSettings } from '../controllers/context.js';
import type { NodeLifecycleConfig } from '../controllers/node-lifecycle.js';
import { startNodeLifecycleGate } from './node-lifecycle-gate.js';
import { startNodeIpamGate } from './node-ipam-gate.js';
import { DEFAULT_POD_CIDR } from '../api/cluster-network.js';
import { startScheduler } from '../scheduler/scheduler.js';
import { startLeaderGate, type LeaderGate, type LeaderTiming } from './leader-gate.js';

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
  /** Schedules while this process holds kube-system/kube-scheduler; stands by otherwise. */
  scheduler: LeaderGate;
  nodeLifecycle: LeaderGate;
  /** Gives Nodes their spec.podCIDR while this process holds kube-system/drover-node-ipam. */
  nodeIpam: LeaderGate;
  controllers: RunningControllerManager;
  stop(): Promise<void>;
}

export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const schedulerApi = new ApiClient({ server: options.server, namespace: 'default', tls: asBuffers(options.credentials.scheduler) }, { userAgent: 'drover-scheduler' });
  const controllerApi = new ApiClient({ server: options.server, namespace: 'default', tls: asBuffers(options.credentials.controllers) }, { userAgent: 'drover-controller-manager' });
  // One informer per kind for the scheduler and the controllers: every pod is watched, parsed
  // and cached once in this process, not twice.
  const informers = controllerInformers(controllerApi);
  // The embedded manager joins the controller farm under a name that survives restarts, so a
  // restarted server takes its shards back at once and `drover controller-manager` processes
  // started beside it share the work safely.
  const identity = `server-${hostname()}-${new URL(options.server.split(',')[0]!).port}`;
  // Every server runs a scheduler, but only the Lease holder schedules (the original master and
  // standbys): two schedulers would race for the same pods.
  const timing = options.leaderTiming === undefined ? {} : { timing: options.leaderTiming };
  const scheduler = startLeaderGate({
    api: schedulerApi, name: 'kube-scheduler', identity, ...timing,
    start: () => startScheduler({ api: schedulerApi, informers }),
  });
  const nodeLifecycle = startNodeLifecycleGate({ api: controllerApi, informers, identity, config: options.nodeLifecycle, ...timing });
  const nodeIpam = startNodeIpamGate({ api: controllerApi, informers, identity, podCidr: options.podCidr ?? DEFAULT_POD_CIDR, ...timing });
  // The farm's shard Leases follow the same timing, so a dead server's shards move as fast.
  const farmTiming = options.leaderTiming === undefined ? {} : {
    leaseDurationSeconds: Math.ceil(options.leaderTiming.leaseDurationMs / 1000),
    renewDeadlineMs: options.leaderTiming.renewDeadlineMs,
    retryPeriodMs: options.leaderTiming.retryPeriodMs,
  };
  const controllers = await startControllerManager({
    api: controllerApi, controllers: allControllers, farm: { identity, ...farmTiming }, informers,
    ...(options.controllerSettings ? { settings: options.controllerSettings } : {}),
  });
  return {
    scheduler,
    nodeLifecycle,
    nodeIpam,
    controllers,
    async stop() {
      await Promise.all([scheduler.stop(), nodeLifecycle.stop(), nodeIpam.stop(), controllers.stop()]);
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
