// The resource quota controller, as Kubernetes' of the same name: keeps each ResourceQuota's
// status.hard equal to spec.hard and recalculates status.used from the namespace's objects.
//
// Like Kubernetes it recalculates when a quota appears or its spec changes, when an object it
// counts is deleted or uses less (a pod that ended, a Service no longer NodePort), and for every
// quota every 5 minutes (which also gives back what admission charged for a create that then
// failed). It does not recalculate on creates: the admission has charged those already, and a
// recalculation from a cache that has not yet seen a create in flight would undo its charge.
// Its status writes carry the quota's resourceVersion, so a charge made meanwhile is never lost.
// A charge is written a moment before the object it pays for: a recalculation in that moment
// would not see the object yet and undo the charge. So a namespace whose quotas were charged
// less than a second ago is recalculated a little later (at most 10 seconds later than asked).
import type { KubeObject } from '../api/meta.js';
import { compare, toResourceList, type QuantityMap } from '../api/quota/quantity.js';
import { recalculateUsage, specHard, statusOf, type NamespaceLister } from '../api/quota/recalculate.js';
import { objectUsage, type ResourceKind } from '../api/quota/usage.js';
import { indexers, isConflict, isNotFound, resources, WorkQueue, type Informer, type ResourceRef, type RunningController } from '../client/index.js';
import { runOwnedQueue, type Controller, type ControllerContext } from './context.js';
import { jsonEqual } from '../util/json-equal.js';
import { NAMESPACE_INDEX } from './shape/indexes.js';

export const FULL_RECALCULATION_MS = 5 * 60_000;
/** How long after the last charge a namespace is quiet enough to recalculate. */
const SETTLE_MS = 1000;
/** The longest a recalculation waits for a namespace that keeps being charged. */
const MAX_DEFERRAL_MS = 10_000;

/**
 * Kinds watched for deletions and decreases; their caches also answer recalculations. Secrets
 * too, as Kubernetes' quota controller watches them: a deleted Secret is given back at once.
 */
const WATCHED: readonly ResourceRef[] = [
  resources.pods,
  resources.services,
  resources.configmaps,
  resources.secrets,
  resources.resourcequotas,
  resources.deployments,
  resources.replicasets,
  resources.daemonsets,
  resources.jobs,
];

function kindOf(ref: ResourceRef): ResourceKind {
  return { group: ref.group, plural: ref.plural };
}

/** Whether any resource the object used before is used less now. */
function usesLess(kind: ResourceKind, before: KubeObject, after: KubeObject, now: Date): boolean {
  const old = objectUsage(kind, before, now);
  const current = objectUsage(kind, after, now);
  for (const [name, quantity] of old) {
    const next = current.get(name);
    if (!next || compare(next, quantity) < 0) return true;
  }
  return false;
}

function sameList(a: QuantityMap, b: QuantityMap): boolean {
  if (a.size !== b.size) return false;
  for (const [name, quantity] of a) {
    const other = b.get(name);
    if (!other || compare(other, quantity) !== 0) return false;
  }
  return true;
}

export class ResourceQuotaController implements Controller {
  readonly name = 'resourcequota-controller';
  /** Keys are namespace names: a change recalculates every quota of its namespace. */
  private readonly queue = new WorkQueue<string>();
  private readonly quotas: Informer<KubeObject>;
  private readonly informers = new Map<string, Informer<KubeObject>>();
  private running: RunningController | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** When the admission last charged a quota of each namespace, as this controller saw it. */
  private readonly lastCharge = new Map<string, number>();
  /** When a namespace's recalculation was first put off, while it is. */
  private readonly deferredSince = new Map<string, number>();

  constructor(
    private readonly ctx: ControllerContext,
    private readonly now: () => Date = () => new Date(),
  ) {
    for (const ref of WATCHED) {
      const informer = ctx.factory.informerFor(ref);
      informer.addIndexer(NAMESPACE_INDEX, indexers.namespace);
      this.informers.set(`${ref.group}/${ref.plural}`, informer);
      if (ref === resources.resourcequotas) continue;
      informer.addEventHandler({
        onUpdate: (before, after) => {
          if (before === after || !this.hasQuotas(after.metadata.namespace)) return;
          if (usesLess(kindOf(ref), before, after, this.now())) this.queue.add(after.metadata.namespace!);
          if (ref === resources.pods) this.recheckWhenDeletionGraceEnds(after);
        },
        onDelete: (object) => this.enqueue(object),
      });
    }
    this.quotas = this.informers.get('/resourcequotas')!;
    this.quotas.addEventHandler({
      onAdd: (quota) => this.queue.add(quota.metadata.namespace ?? ''),
      onUpdate: (before, after) => {
        // A change of status.used alone is a charge (or this controller's own write): noted, not recalculated.
        // Noted here, not in the pass: the cache shows what status.used is, never when it last changed.
        if (!sameList(statusOf(before).used, statusOf(after).used)) this.lastCharge.set(after.metadata.namespace ?? '', Date.now());
        const specChanged = !jsonEqual(before['spec'], after['spec']);
        if (before === after || specChanged || !sameList(specHard(after), statusOf(after).hard)) this.queue.add(after.metadata.namespace ?? '');
      },
    });
  }

  start(): void {
    this.running = runOwnedQueue(this.ctx, {
      name: this.name,
      primary: this.quotas,
      queue: this.queue,
      // A farm member that acquires a shard re-enqueues the quotas' own keys (namespace/name).
      reconcile: (key) => this.sync(key.split('/')[0]!),
    });
    this.timer = setInterval(() => {
      for (const quota of this.quotas.list()) this.queue.add(quota.metadata.namespace ?? '');
    }, FULL_RECALCULATION_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.stop();
  }

  private hasQuotas(namespace: string | undefined): namespace is string {
    return namespace !== undefined && this.quotas.byIndex(NAMESPACE_INDEX, namespace).length > 0;
  }

  private enqueue(object: Readonly<KubeObject>): void {
    if (this.hasQuotas(object.metadata.namespace)) this.queue.add(object.metadata.namespace);
  }

  /** A pod stuck terminating stops counting once its deletion grace has passed again (Kubernetes' QuotaV1Pod). */
  private recheckWhenDeletionGraceEnds(pod: Readonly<KubeObject>): void {
    const { deletionTimestamp, deletionGracePeriodSeconds, namespace } = pod.metadata;
    if (!deletionTimestamp || typeof deletionGracePeriodSeconds !== 'number' || !namespace) return;
    const due = Date.parse(deletionTimestamp) + deletionGracePeriodSeconds * 1000 - this.now().getTime();
    this.queue.addAfter(namespace, Math.max(0, due) + 1000);
  }

  /** Milliseconds to put a namespace's recalculation off by, or 0 to go ahead. */
  private deferral(namespace: string): number {
    const sinceCharge = Date.now() - (this.lastCharge.get(namespace) ?? 0);
    const first = this.deferredSince.get(namespace) ?? Date.now();
    if (sinceCharge >= SETTLE_MS || Date.now() - first >= MAX_DEFERRAL_MS) {
      this.deferredSince.delete(namespace);
      return 0;
    }
    this.deferredSince.set(namespace, first);
    return SETTLE_MS - sinceCharge;
  }

  private async sync(namespace: string): Promise<void> {
    const wait = this.deferral(namespace);
    if (wait > 0) {
      this.queue.addAfter(namespace, wait);
      return;
    }
    const now = this.now();
    for (const quota of this.quotas.byIndex(NAMESPACE_INDEX, namespace)) {
      const used = await recalculateUsage(quota, this.lister(namespace), now);
      const status = statusOf(quota);
      if (sameList(status.hard, specHard(quota)) && sameList(status.used, used)) continue;
      const spec = (quota['spec'] ?? {}) as Record<string, unknown>;
      const updated: KubeObject = { ...quota, status: { hard: { ...(spec['hard'] as object) }, used: toResourceList(used) } };
      try {
        await this.ctx.api.resource(resources.resourcequotas, namespace).updateStatus(updated);
      } catch (error) {
        if (isNotFound(error)) continue;
        // The admission charged it meanwhile: recalculate from the newer quota.
        if (isConflict(error)) {
          this.queue.addAfter(namespace, 100);
          continue;
        }
        throw error;
      }
    }
  }

  /** Cached kinds from their informers; other kinds (count/<resource>.<group>) listed from the API. */
  private lister(namespace: string): NamespaceLister {
    return async (kind) => {
      const informer = this.informers.get(`${kind.group}/${kind.plural}`);
      if (informer) return informer.byIndex(NAMESPACE_INDEX, namespace) as KubeObject[];
      const ref = Object.values(resources).find((r: ResourceRef) => r.group === kind.group && r.plural === kind.plural && r.namespaced);
      if (!ref) return undefined;
      return (await this.ctx.api.resource(ref, namespace).listAll()).items as KubeObject[];
    };
  }
}
