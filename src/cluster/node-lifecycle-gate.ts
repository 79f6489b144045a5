// The node lifecycle controller behind its leader Lease: `drover server` and `drover
// controller-manager` both start it, and exactly one of them runs it at a time.
import type { ApiClient, SharedInformerFactory } from '../client/index.js';
import { NodeLifecycleController, type NodeLifecycleConfig } from '../controllers/node-lifecycle.js';
import { startLeaderGate, type LeaderGate, type LeaderTiming } from './leader-gate.js';

/** The node lifecycle controller, once per cluster: it marks nodes unreachable and evicts their pods. */
export function startNodeLifecycleGate(params: {
  api: ApiClient;
  informers?: SharedInformerFactory;
  identity: string;
  config?: Pick<NodeLifecycleConfig, 'gracePeriodSeconds' | 'podEvictionTimeoutSeconds'>;
  timing?: LeaderTiming;
}): LeaderGate {
  return startLeaderGate({
    api: params.api,
    name: 'drover-node-lifecycle',
    identity: params.identity,
    ...(params.timing === undefined ? {} : { timing: params.timing }),
    async start() {
      const controller = new NodeLifecycleController({
        ...params.config,
        api: params.api,
        ...(params.informers === undefined ? {} : { informers: params.informers }),
      });
      await controller.start();
      return controller;
    },
  });
}
