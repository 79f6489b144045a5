// Node IPAM, as Kubernetes' node-ipam controller with its range allocator: every Node gets a
// /24 (NODE_PREFIX) of the cluster's pod CIDR as spec.podCIDR (and podCIDRs), the lowest one
// free, and its agent gives its pods addresses from it. The first /24 is never handed out: it
// holds the pod network's gateway (10.42.0.1 of 10.42.0.0/16). A deleted Node's range is free
// again. A Node that already has a range keeps it, and every range Nodes hold is counted before
// the first is handed out, so a restarted controller never gives one out twice.
//
// One allocator per cluster: ranges are picked from what this process knows is free, so two
// allocators could pick the same one. It runs behind a leader Lease (cluster/node-ipam-gate.ts),
// not sharded in the controller farm.
import { formatCidr, NODE_PREFIX, parseCidr, type Cidr } from '../api/cluster-network.js';
import type { KubeObject } from '../api/meta.js';
import { isNotFound, resources, WorkQueue, type Informer, type RunningController } from '../client/index.js';
import { runOwnedQueue, type Controller, type ControllerContext } from './context.js';

const COMPONENT = 'node-ipam-controller';
const BLOCK = 2 ** (32 - NODE_PREFIX);

function podCidrOf(node: Readonly<KubeObject>): string {
  const spec = (node['spec'] ?? {}) as { podCIDR?: unknown; podCIDRs?: unknown };
  if (typeof spec.podCIDR === 'string' && spec.podCIDR !== '') return spec.podCIDR;
  const first = Array.isArray(spec.podCIDRs) ? spec.podCIDRs[0] : undefined;
  return typeof first === 'string' ? first : '';
}

/** Which /24 blocks of the pool each Node holds. */
class BlockMap {
  /** Block index → the Node holding it. */
  private readonly owners = new Map<number, string>();

  constructor(private readonly pool: Cidr) {}

  get blocks(): number {
    return this.pool.size / BLOCK;
  }

  /** Marks the blocks `cidr` covers as the node's (a range outside the pool covers none). */
  hold(name: string, cidr: string): void {
    const range = parseCidr(cidr);
    if (!range) return;
    const start = Math.max(range.base, this.pool.base);
    const end = Math.min(range.base + range.size, this.pool.base + this.pool.size);
    for (let at = start; at < end; at += BLOCK) this.owners.set(Math.floor((at - this.pool.base) / BLOCK), name);
  }

  releaseAll(name: string): void {
    for (const [index, owner] of this.owners) if (owner === name) this.owners.delete(index);
  }

  release(index: number, name: string): void {
    if (this.owners.get(index) === name) this.owners.delete(index);
  }

  /**
   * The block `name` already holds (picked earlier, its write not yet seen in the cache), or the
   * lowest free one from the second on, taken for it; undefined when all are held.
   */
  take(name: string): number | undefined {
    for (const [index, owner] of this.owners) if (owner === name) return index;
    for (let index = 1; index < this.blocks; index++) {
      if (this.owners.has(index)) continue;
      this.owners.set(index, name);
      return index;
    }
    return undefined;
  }

  cidrOf(index: number): string {
    return formatCidr({ base: this.pool.base + index * BLOCK, prefix: NODE_PREFIX, size: BLOCK });
  }
}

export class NodeIpamController implements Controller {
  readonly name = COMPONENT;
  /** Keys are Node names. */
  private readonly queue = new WorkQueue<string>();
  private readonly nodes: Informer<KubeObject>;
  private readonly blocks: BlockMap;
  /** Nodes told CIDRNotAvailable: told once, until they get a range or go. */
  private readonly toldFull = new Set<string>();
  private stopHandling: (() => void) | undefined;
  private running: RunningController | undefined;

  constructor(
    private readonly ctx: ControllerContext,
    podCidr: string,
  ) {
    const pool = parseCidr(podCidr);
    if (!pool || pool.prefix > NODE_PREFIX) throw new Error(`node IPAM: pod CIDR ${podCidr} holds no /${NODE_PREFIX}`);
    this.blocks = new BlockMap(pool);
    this.nodes = ctx.factory.informerFor(resources.nodes);
  }

  start(): void {
    // Handlers are added at start, not in the constructor: behind a leader Lease the controller
    // is made again on each lead, on informers that outlive it. A synced informer replays every
    // Node to a new handler, so the held ranges are all counted before the queue runs.
    this.stopHandling = this.nodes.addEventHandler({
      onAdd: (node) => this.seen(node),
      onUpdate: (_old, node) => this.seen(node),
      onDelete: (node) => this.gone(node.metadata.name ?? ''),
    });
    for (const node of this.nodes.list()) this.seen(node);
    this.running = runOwnedQueue(this.ctx, {
      // One worker: each pick sees the one before it.
      name: this.name,
      primary: this.nodes,
      queue: this.queue,
      workers: 1,
      reconcile: (name) => this.allocate(name),
    });
  }

  async stop(): Promise<void> {
    this.stopHandling?.();
    await this.running?.stop();
  }

  // Held ranges are counted as Nodes are seen, not in a pass: a pick must know every Node's range, and a pass reconciles one Node.
  private seen(node: Readonly<KubeObject>): void {
    const name = node.metadata.name ?? '';
    const cidr = podCidrOf(node);
    if (cidr === '') {
      this.queue.add(name);
      return;
    }
    this.blocks.hold(name, cidr);
    this.toldFull.delete(name);
  }

  // Freed as the deletion arrives, not in a pass: the next pick must see the range free, and a Node made again under the name must not find it held.
  private gone(name: string): void {
    this.blocks.releaseAll(name);
    this.toldFull.delete(name);
    // A range came free: the Nodes still waiting for one may have it.
    for (const node of this.nodes.list()) if (podCidrOf(node) === '') this.queue.add(node.metadata.name ?? '');
  }

  private async allocate(name: string): Promise<void> {
    const node = this.nodes.getByName(undefined, name);
    if (!node || podCidrOf(node) !== '') return;
    const index = this.blocks.take(name);
    if (index === undefined) {
      if (!this.toldFull.has(name)) {
        this.toldFull.add(name);
        // Kubernetes' words (RecordNodeStatusChange); the Node waits until a range comes free.
        void this.ctx.recorder(COMPONENT).record(node as KubeObject, 'Normal', 'CIDRNotAvailable', `Node ${name} status is now: CIDRNotAvailable`);
      }
      return;
    }
    const cidr = this.blocks.cidrOf(index);
    try {
      // Should another writer have set a range meanwhile, validation refuses to change it and
      // the retry finds the Node's own in the cache.
      await this.ctx.api.resource(resources.nodes).patch(name, 'merge', { spec: { podCIDR: cidr, podCIDRs: [cidr] } });
    } catch (error) {
      this.blocks.release(index, name);
      if (isNotFound(error)) return;
      throw error;
    }
  }
}
