// `drover simulate`: N hollow nodes in one process, as kubemark and kwok give Kubernetes —
// ordinary API clients that register Nodes, renew their Leases and report the pods bound to
// them Running without starting anything, so that the real scheduler and controllers can be
// run (and measured) against a cluster of thousands of nodes on one machine.
import { ApiClient, consoleLogger, type Logger } from '../client/index.js';
import { DEFAULT_SHAPE, type HollowNodeShape } from './hollow-node.js';
import { NodeFleet, type FleetStats } from './node-fleet.js';
import { maxNodesFor } from './pod-addresses.js';
import { PodReporter, type PodStats } from './pod-reporter.js';

export interface SimulationOptions {
  nodes: number;
  /** Nodes are named PREFIX0 … PREFIX(N-1). Default `hollow-`. */
  namePrefix?: string;
  /** API server URL; or a kubeconfig (kubectl's rules when neither is given). */
  server?: string;
  kubeconfig?: string;
  /** An existing client; the simulation does not close it. */
  api?: ApiClient;
  shape?: Partial<HollowNodeShape>;
  /** Seconds between Lease renewals of each node (the agent's 10 s). */
  leaseRenewSeconds?: number;
  logger?: Logger;
  /** Called while nodes register, with how many have. */
  onProgress?: (registered: number, total: number) => void;
}

export interface SimulationStats {
  nodes: FleetStats;
  pods: PodStats;
}

export interface Simulation {
  readonly nodeNames: readonly string[];
  stats(): SimulationStats;
  /** Stops renewing and reporting; the Nodes stay, and go NotReady once their Leases expire. */
  close(): Promise<void>;
}

export function hollowNodeNames(count: number, prefix = 'hollow-'): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i}`);
}

export async function startSimulation(options: SimulationOptions): Promise<Simulation> {
  const shape: HollowNodeShape = { ...DEFAULT_SHAPE, ...options.shape };
  if (!Number.isInteger(options.nodes) || options.nodes < 1) throw new Error('--nodes must be a positive integer');
  if (options.nodes > maxNodesFor(shape.maxPods))
    throw new Error(`at most ${maxNodesFor(shape.maxPods)} hollow nodes fit the pod address range with ${shape.maxPods} pods each`);
  const logger = options.logger ?? consoleLogger('simulate');
  const ownsApi = options.api === undefined;
  const api =
    options.api ??
    (await ApiClient.load(
      { ...(options.kubeconfig ? { kubeconfig: options.kubeconfig } : {}), ...(options.server ? { server: options.server } : {}) },
      { userAgent: 'drover-simulate' },
    ));
  const nodeNames = hollowNodeNames(options.nodes, options.namePrefix);
  const fleet = new NodeFleet({ api, names: nodeNames, shape, leaseRenewMs: (options.leaseRenewSeconds ?? 10) * 1000, logger });
  const pods = new PodReporter({ api, nodes: fleet.nodes, logger });
  const close = async () => {
    await pods.stop();
    await fleet.stop();
    if (ownsApi) api.close();
  };
  try {
    await fleet.start();
    await untilRegistered(fleet, options.onProgress);
    await pods.start();
  } catch (error) {
    await close();
    throw error;
  }
  return { nodeNames, stats: () => ({ nodes: fleet.stats(), pods: pods.stats() }), close };
}

/** Waits until every node has registered; a server that refuses keeps it waiting, as an agent waits. */
async function untilRegistered(fleet: NodeFleet, onProgress: SimulationOptions['onProgress']): Promise<void> {
  const total = fleet.nodes.size;
  let lastReport = Date.now();
  for (;;) {
    const registered = fleet.registered();
    if (registered === total) break;
    if (Date.now() - lastReport >= 2000) {
      lastReport = Date.now();
      onProgress?.(registered, total);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  onProgress?.(total, total);
}
