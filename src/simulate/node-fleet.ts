// The hollow nodes of one simulation: each registers its Node, renews its Lease at the agent's
// interval and reports its status, as the agent's NodeManager does for one machine — but all
// of them from one process, with one Node informer, one work queue and one timer for the
// Leases (periodic-calls.ts) instead of a set of loops per node.
//
// Status is written when it changes (someone marked the node NotReady, the Node was deleted
// and comes back) and otherwise every 5 min, the kubelet's nodeStatusReportFrequency when
// Leases carry the heartbeat: at 5,000 nodes a status write every 10 s would double the
// write load for nothing the control plane reads.
import type { KubeObject } from '../api/meta.js';
import { NodeLease } from '../agent/node/node-lease.js';
import { statusChanged, type ReportedNodeStatus } from '../agent/node/node-object.js';
import {
  ExponentialRateLimiter,
  Informer,
  WorkQueue,
  isAlreadyExists,
  resources,
  runController,
  type ApiClient,
  type Logger,
  type RunningController,
} from '../client/index.js';
import { HOLLOW_LABEL, hollowLabels, hollowNodeObject, hollowNodeStatus, type HollowNodeShape } from './hollow-node.js';
import { PeriodicCalls } from './periodic-calls.js';
import { PodAddresses } from './pod-addresses.js';

export interface NodeFleetOptions {
  api: ApiClient;
  /** The nodes' names, in order (a node's index places its Lease renewals and pod addresses). */
  names: readonly string[];
  shape: HollowNodeShape;
  /** The agent's Lease interval (10 s). */
  leaseRenewMs: number;
  /** Status report when nothing changed (default 5 min). */
  statusReportMs?: number;
  logger: Logger;
}

interface NodeObject extends KubeObject {
  status?: Partial<ReportedNodeStatus>;
}

export class HollowNode {
  uid: string | undefined;
  registered = false;
  reportedAt = 0;
  readonly lease: NodeLease;
  readonly addresses: PodAddresses;

  constructor(
    readonly name: string,
    readonly index: number,
    api: ApiClient,
    maxPods: number,
  ) {
    this.lease = new NodeLease(api, name, () => this.uid);
    this.addresses = new PodAddresses(index, maxPods);
  }
}

export interface FleetStats {
  registered: number;
  registrations: number;
  statusWrites: number;
  leaseRenewals: number;
  leaseFailures: number;
}

const NODE_WORKERS = 32;
const LEASE_CONCURRENCY = 64;

export class NodeFleet {
  readonly nodes = new Map<string, HollowNode>();
  private readonly informer: Informer<NodeObject>;
  // Retries capped at 30 s: a node that could not register (server down) tries again soon after it is back.
  private readonly queue = new WorkQueue<string>({ rateLimiter: new ExponentialRateLimiter<string>(200, 30_000) });
  private readonly leases: PeriodicCalls;
  private readonly reports: PeriodicCalls;
  private readonly counts = { registrations: 0, statusWrites: 0 };
  /** Nodes whose Lease renewals and status reports are scheduled. */
  private readonly scheduled = new Set<string>();
  private controller: RunningController | undefined;

  constructor(private readonly opts: NodeFleetOptions) {
    opts.names.forEach((name, index) => this.nodes.set(name, new HollowNode(name, index, opts.api, opts.shape.maxPods)));
    const { logger } = opts;
    this.informer = new Informer<NodeObject>(opts.api, resources.nodes, { labelSelector: `${HOLLOW_LABEL}=true`, logger });
    this.informer.addEventHandler({
      onAdd: (node) => this.observed(node),
      onUpdate: (_old, node) => this.observed(node),
      onDelete: (node) => this.deleted(node),
    });
    this.leases = new PeriodicCalls({
      name: 'lease renewal',
      intervalMs: opts.leaseRenewMs,
      concurrency: LEASE_CONCURRENCY,
      logger,
      call: (name) => this.nodes.get(name)?.lease.renew() ?? Promise.resolve(),
    });
    // The status "call" only queues the node: its worker decides whether a write is due.
    this.reports = new PeriodicCalls({
      name: 'status report',
      intervalMs: opts.statusReportMs ?? 300_000,
      concurrency: Infinity,
      logger,
      call: async (name) => this.queue.add(name),
    });
  }

  /** Registers every node (in the background: see registered()) and starts their heartbeats. */
  async start(): Promise<void> {
    this.informer.start();
    await this.informer.waitForSync();
    this.controller = runController({
      name: 'hollow-nodes',
      queue: this.queue,
      workers: NODE_WORKERS,
      logger: this.opts.logger,
      reconcile: (name) => this.reconcile(name),
    });
    for (const name of this.nodes.keys()) this.queue.add(name);
    this.leases.start();
    this.reports.start();
  }

  /** How many nodes have registered (Node, status and a first Lease written). */
  registered(): number {
    let count = 0;
    for (const node of this.nodes.values()) if (node.registered) count++;
    return count;
  }

  stats(): FleetStats {
    return {
      registered: this.registered(),
      ...this.counts,
      leaseRenewals: this.leases.stats.calls - this.leases.stats.failures,
      leaseFailures: this.leases.stats.failures,
    };
  }

  async stop(): Promise<void> {
    await Promise.all([this.leases.stop(), this.reports.stop()]);
    await this.controller?.stop();
    await this.informer.stop();
  }

  private observed(object: Readonly<NodeObject>): void {
    const name = object.metadata.name ?? '';
    if (!this.nodes.get(name)?.registered) return;
    // Someone else changed our conditions (the node lifecycle controller's Unknown): report again.
    if (statusChanged(hollowNodeStatus(name, this.opts.shape, object.status), object.status)) this.queue.add(name);
  }

  private deleted(object: Readonly<NodeObject>): void {
    const node = this.nodes.get(object.metadata.name ?? '');
    if (!node) return;
    // Deleted under us: a kubelet registers again, and so does a hollow node.
    node.registered = false;
    this.queue.add(node.name);
  }

  private async reconcile(name: string): Promise<void> {
    const node = this.nodes.get(name);
    if (!node) return;
    if (!node.registered) return this.register(node);
    const current = this.informer.getByName(undefined, name);
    const desired = hollowNodeStatus(name, this.opts.shape, current?.status);
    const due = Date.now() - node.reportedAt >= (this.opts.statusReportMs ?? 300_000);
    if (due || !current || statusChanged(desired, current.status)) await this.writeStatus(node, current?.status);
  }

  private async register(node: HollowNode): Promise<void> {
    const client = this.opts.api.resource<NodeObject>(resources.nodes);
    let object: NodeObject;
    try {
      object = await client.create(hollowNodeObject(node.name, this.opts.shape));
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
      // A restarted simulation keeps what others set (taints, cordon, labels) and refreshes ours.
      object = await client.patch(node.name, 'merge', { metadata: { labels: hollowLabels(node.name, this.opts.shape) } });
    }
    node.uid = object.metadata.uid;
    await this.writeStatus(node, object.status);
    await node.lease.renew();
    this.counts.registrations++;
    node.registered = true;
    this.addTurns(node);
  }

  /** The node's Lease renewals and status reports, from its first registration on. */
  private addTurns(node: HollowNode): void {
    if (this.scheduled.has(node.name)) return;
    this.scheduled.add(node.name);
    this.leases.add(node.name, node.index, this.nodes.size);
    this.reports.add(node.name, node.index, this.nodes.size);
  }

  private async writeStatus(node: HollowNode, previous: Partial<ReportedNodeStatus> | undefined): Promise<void> {
    const status = hollowNodeStatus(node.name, this.opts.shape, previous);
    const written = await this.opts.api.resource<NodeObject>(resources.nodes).patch(node.name, 'merge', { status }, { subresource: 'status' });
    node.uid = written.metadata.uid;
    node.reportedAt = Date.now();
    this.counts.statusWrites++;
  }
}
