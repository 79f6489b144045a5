// Watches the member pods of gangs and checks, after every pod event, that no group is
// partially bound: each group has either no bound member or at least minMember. Bindings are
// separate API writes, so a group passes through partial states within one binding batch;
// "partially bound" therefore means a group with 0 < bound < minMember whose bindings have
// settled: no member of it was bound for `settleMs` (2 s by default) and it is still partial,
// while the test has not started deleting it. A batch whose writes trickle in slowly under
// load is not a deadlock; a group stuck half-bound is.
import type { KubeObject } from '../../src/api/meta.js';
import { ApiClient, Informer, resources } from '../../src/client/index.js';
import { POD_GROUP_LABEL } from '../fixtures/gangs.js';

const BY_GROUP = 'group';

export class GangWatch {
  private readonly informer: Informer<KubeObject>;
  private readonly minMember = new Map<string, number>();
  /** Partial groups: when their bound count last changed. */
  private readonly partialSince = new Map<string, { since: number; bound: number }>();
  private readonly finished = new Set<string>();
  private readonly fullyBoundAt = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  /** Groups that stayed partially bound past the settle time, with how long. */
  readonly deadlocked = new Map<string, number>();
  events = 0;

  /** `labelSelector` narrows the watch (default: every pod with the group label). */
  constructor(
    readonly api: ApiClient,
    namespace: string,
    private readonly settleMs = 2_000,
    labelSelector = POD_GROUP_LABEL,
  ) {
    this.informer = new Informer(api, resources.pods, { namespace, labelSelector });
    // Counting a group's pods must not scan every pod on every event (the benchmark has 18,000).
    this.informer.addIndexer(BY_GROUP, (pod) => [pod.metadata.labels?.[POD_GROUP_LABEL] ?? '']);
    const check = (pod: Readonly<KubeObject>) => {
      this.events++;
      this.check(pod.metadata.labels?.[POD_GROUP_LABEL] ?? '');
    };
    this.informer.addEventHandler({ onAdd: check, onUpdate: (_old, pod) => check(pod), onDelete: check });
    this.timer = setInterval(() => this.sweep(), 100);
  }

  async start(): Promise<void> {
    this.informer.start();
    await this.informer.waitForSync();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.sweep();
    await this.informer.stop();
  }

  expect(group: string, minMember: number): void {
    this.minMember.set(group, minMember);
  }

  /** The test deletes the group's pods now: partial states from here on are the deletion's. */
  finish(group: string): void {
    this.finished.add(group);
    this.partialSince.delete(group);
  }

  /** Groups that have a bound member but fewer than minMember now. */
  partialNow(): string[] {
    return [...this.minMember].filter(([group, min]) => !this.finished.has(group) && this.bound(group) > 0 && this.bound(group) < min).map(([group]) => group);
  }

  bound(group: string): number {
    return this.informer.byIndex(BY_GROUP, group).filter((pod) => (pod['spec'] as { nodeName?: string }).nodeName && !pod.metadata.deletionTimestamp).length;
  }

  /** When the group first had minMember bound (epoch ms), if it has. */
  fullyBound(group: string): number | undefined {
    return this.fullyBoundAt.get(group);
  }

  private check(group: string): void {
    const min = this.minMember.get(group);
    if (min === undefined || this.finished.has(group)) return;
    const bound = this.bound(group);
    if (bound >= min && !this.fullyBoundAt.has(group)) this.fullyBoundAt.set(group, Date.now());
    if (bound > 0 && bound < min) {
      if (this.partialSince.get(group)?.bound !== bound) this.partialSince.set(group, { since: Date.now(), bound });
    } else {
      this.partialSince.delete(group);
    }
  }

  private sweep(): void {
    const now = Date.now();
    for (const [group, { since }] of this.partialSince) {
      if (now - since > this.settleMs) this.deadlocked.set(group, now - since);
    }
  }
}
