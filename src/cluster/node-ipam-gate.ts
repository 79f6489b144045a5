// The node IPAM controller behind its leader Lease: `drover server` and `drover
// controller-manager` both start it, and exactly one of them hands out ranges at a time (two
// would pick the same free range for different Nodes).
import { resources, type ApiClient, type SharedInformerFactory } from '../client/index.js';
import { createControllerContext } from '../controllers/manager.js';
import { NodeIpamController } from '../controllers/node-ipam.js';
import { startLeaderGate, type LeaderGate, type LeaderTiming } from './leader-gate.js';

export function startNodeIpamGate(params: {
  api: ApiClient;
  /** The process's informers (shared with other components); its own when unset. */
  informers?: SharedInformerFactory;
  identity: string;
  /** The cluster's pod CIDR, each Node's range a /24 of it. */
  podCidr: string;
  timing?: LeaderTiming;
}): LeaderGate {
  return startLeaderGate({
    api: params.api,
    name: 'drover-node-ipam',
    identity: params.identity,
    ...(params.timing === undefined ? {} : { timing: params.timing }),
    async start() {
      const ctx = createControllerContext(params.api, params.informers === undefined ? {} : { informers: params.informers });
      const controller = new NodeIpamController(ctx, params.podCidr);
      if (!params.informers) ctx.factory.start();
      // Every Node is known before the first range is picked (shared informers: once their owner starts them).
      await ctx.factory.informerFor(resources.nodes).waitForSync();
      controller.start();
      return {
        async stop() {
          await controller.stop();
          if (!params.informers) await ctx.factory.stop();
        },
      };
    },
  });
}
