// The controller side of a control plane, composed once for `drover server` (beside the API, in
// its control-plane thread) and `drover controller-manager` (alone): the workload controllers in
// the farm, plus the two controllers that must run once per cluster — node lifecycle and node
// IPAM — each behind its own leader Lease.
import type { ApiClient, SharedInformerFactory } from '../client/index.js';
import { allControllers } from '../controllers/all.js';
import { startControllerManager, type FarmOptions } from '../controllers/manager.js';
import type { NodeLifecycleConfig } from '../controllers/node-lifecycle.js';
import type { ControllerSettings } from '../controllers/context.js';
import type { LeaderTiming } from './leader-gate.js';
import { startNodeIpamGate } from './node-ipam-gate.js';
import { startNodeLifecycleGate } from './node-lifecycle-gate.js';

export interface ControllersOptions {
  api: ApiClient;
  /** This member of the farm and candidate for the once-per-cluster Leases. */
  identity: string;
  /** The cluster's pod CIDR, which node IPAM splits into the Nodes' ranges. */
  podCidr: string;
  /** The farm's shards and lease timing (the identity is the one above). */
  farm?: Omit<FarmOptions, 'identity'>;
  /** The process's shared informers; the manager's own when unset. */
  informers?: SharedInformerFactory;
  nodeLifecycle?: Pick<NodeLifecycleConfig, 'gracePeriodSeconds' | 'podEvictionTimeoutSeconds'> | undefined;
  /** Timing of the node lifecycle and node IPAM Leases (the gates' default when unset). */
  leaderTiming?: LeaderTiming | undefined;
  /** The controllers' tunables (the HPA's sync period). */
  settings?: ControllerSettings | undefined;
}

export interface RunningControllers {
  stop(): Promise<void>;
}

export async function startControllers(options: ControllersOptions): Promise<RunningControllers> {
  const { api, identity } = options;
  const shared = {
    api,
    identity,
    ...(options.informers === undefined ? {} : { informers: options.informers }),
    ...(options.leaderTiming === undefined ? {} : { timing: options.leaderTiming }),
  };
  const nodeLifecycle = startNodeLifecycleGate({ ...shared, ...(options.nodeLifecycle === undefined ? {} : { config: options.nodeLifecycle }) });
  const nodeIpam = startNodeIpamGate({ ...shared, podCidr: options.podCidr });
  const manager = await startControllerManager({
    api,
    controllers: allControllers,
    farm: { ...options.farm, identity },
    ...(options.informers === undefined ? {} : { informers: options.informers }),
    ...(options.settings === undefined ? {} : { settings: options.settings }),
  });
  return {
    async stop() {
      await Promise.all([nodeLifecycle.stop(), nodeIpam.stop(), manager.stop()]);
    },
  };
}
