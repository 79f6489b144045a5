// Node lifecycle: a node whose Lease is not renewed within the grace period goes Ready=Unknown
// and gets the `node.kubernetes.io/unreachable` taints; after the eviction timeout its pods are
// deleted so that their controllers recreate them elsewhere, and force-deleted once their own
// grace period has also passed (their agent is not there to confirm). A node whose Lease is
// renewed again loses the taints; its agent reports Ready itself.
import { metaTime, type KubeObject } from '../api/meta.js';
import { SharedInformerFactory, isNotFound, resources, type ApiClient, type Informer } from '../client/index.js';
import { TAINT_UNREACHABLE, type Taint } from '../api/scheduling/taints.js';
import { tolerates } from '../api/scheduling/tolerations.js';
import type { Node, Pod } from '../api/core/index.js';

export interface NodeLifecycleConfig {
  api: ApiClient;
  /** The process's informers, shared with the scheduler and controllers; its own when unset. */
  informers?: SharedInformerFactory;
  /** A Lease older than this marks its node unreachable. Kubernetes' default: 40 s. */
  gracePeriodSeconds?: number;
  /** How long pods stay on an unreachable node before they are deleted. Default 60 s. */
  podEvictionTimeoutSeconds?: number;
  monitorPeriodMs?: number;
}

const UNREACHABLE_NO_EXECUTE: Taint = { key: TAINT_UNREACHABLE, effect: 'NoExecute' };
const LEASE_NAMESPACE = 'kube-node-lease';

const rfc3339 = (ms: number) => metaTime(new Date(ms));

export class NodeLifecycleController {
  private readonly nodes: Informer<KubeObject>;
  private readonly leases: Informer<KubeObject>;
  /** The shared informers given, or the controller's own. */
  private readonly informers: SharedInformerFactory;
  private timer: NodeJS.Timeout | undefined;
  /** node name → when we first saw it unreachable */
  private readonly unreachableSince = new Map<string, number>();
  private running = false;

  constructor(private readonly config: NodeLifecycleConfig) {
    this.informers = config.informers ?? new SharedInformerFactory(config.api);
    this.nodes = this.informers.informerFor(resources.nodes);
    this.leases = this.informers.informerFor(resources.leases, { namespace: LEASE_NAMESPACE });
  }

  async start(): Promise<void> {
    // No pod informer: caching every pod for the rare eviction would cost the server's memory.
    for (const informer of [this.nodes, this.leases]) informer.start();
    await Promise.all([this.nodes.waitForSync(), this.leases.waitForSync()]);
    this.timer = setInterval(() => void this.monitor(), this.config.monitorPeriodMs ?? 5000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (!this.config.informers) await this.informers.stop();
  }

  /** One pass over every node; passes never overlap. */
  async monitor(now = Date.now()): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (const node of this.nodes.list())
        await this.check(node, now).catch((error: unknown) => {
          console.error(`node-lifecycle: ${node.metadata.name}: ${(error as Error).message}`);
        });
    } finally {
      this.running = false;
    }
  }

  private lastHeartbeat(node: KubeObject): number {
    const name = node.metadata.name!;
    const lease = this.leases.getByName(LEASE_NAMESPACE, name);
    const renew = (lease?.['spec'] as { renewTime?: string } | undefined)?.renewTime;
    // A node that never had a Lease counts from its creation.
    return Date.parse(renew ?? node.metadata.creationTimestamp ?? '') || 0;
  }

  private async check(node: KubeObject, now: number): Promise<void> {
    const name = node.metadata.name!;
    const grace = (this.config.gracePeriodSeconds ?? 40) * 1000;
    const stale = now - this.lastHeartbeat(node) > grace;
    const taints = (node as Node).spec?.taints ?? [];
    const tainted = taints.some((t) => t.key === TAINT_UNREACHABLE);
    if (!stale) {
      this.unreachableSince.delete(name);
      if (tainted)
        await this.setTaints(
          node,
          taints.filter((t) => t.key !== TAINT_UNREACHABLE),
        );
      return;
    }
    if (!this.unreachableSince.has(name)) this.unreachableSince.set(name, now);
    if (!tainted) {
      await this.markUnknown(node, now);
      await this.setTaints(node, [
        ...taints,
        { key: TAINT_UNREACHABLE, effect: 'NoSchedule', timeAdded: rfc3339(now) },
        { key: TAINT_UNREACHABLE, effect: 'NoExecute', timeAdded: rfc3339(now) },
      ]);
    }
    await this.evictPods(name, now, now - this.unreachableSince.get(name)!);
  }

  /**
   * How long a pod may stay on an unreachable node: forever when it tolerates the NoExecute
   * unreachable taint without a time limit (DaemonSet pods); otherwise its tolerationSeconds
   * (every pod gets 300 s by default), capped by the eviction timeout.
   */
  private evictionDelayMs(pod: KubeObject): number {
    const tolerations = (pod as Pod).spec?.tolerations ?? [];
    const toleration = tolerations.find((t) => tolerates(t, UNREACHABLE_NO_EXECUTE));
    const timeout = (this.config.podEvictionTimeoutSeconds ?? 60) * 1000;
    if (toleration && toleration.tolerationSeconds === undefined) return Infinity;
    return Math.min(timeout, Math.max(0, toleration?.tolerationSeconds ?? Infinity) * 1000);
  }

  private async setTaints(node: KubeObject, taints: Taint[]): Promise<void> {
    await this.config.api.resource(resources.nodes).patch(node.metadata.name!, 'merge', { spec: { taints: taints.length ? taints : null } });
  }

  private async markUnknown(node: KubeObject, now: number): Promise<void> {
    const at = rfc3339(now);
    const conditions = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].map((type) => ({
      type,
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      lastHeartbeatTime: at,
      lastTransitionTime: at,
    }));
    await this.config.api.resource(resources.nodes).patch(node.metadata.name!, 'strategic', { status: { conditions } }, { subresource: 'status' });
  }

  /**
   * Deletes the node's pods whose time is up; those already terminating past their grace period are forced.
   * Plain deletes, not the eviction subresource: as Kubernetes' taint-based eviction, a lost node's
   * pods are gone already, and a PodDisruptionBudget must not keep their replacements from starting.
   */
  private async evictPods(nodeName: string, now: number, unreachableForMs: number): Promise<void> {
    const pods = await this.config.api.resource(resources.pods).listAll({ fieldSelector: `spec.nodeName=${nodeName}` });
    for (const pod of pods.items) {
      if (unreachableForMs < this.evictionDelayMs(pod)) continue;
      const client = this.config.api.resource(resources.pods, pod.metadata.namespace);
      const deletion = pod.metadata.deletionTimestamp;
      try {
        if (!deletion) await client.delete(pod.metadata.name!, { preconditions: { uid: pod.metadata.uid! } });
        else if (Date.parse(deletion) <= now) await client.delete(pod.metadata.name!, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid! } });
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    }
  }
}
