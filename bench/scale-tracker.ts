// The benchmark's view of its pods: one cluster-wide pod informer (a watch like the
// scheduler's and the hollow nodes') that notes when each pod was first seen, seen bound to a
// node, and seen Running, and hands every event to the probes for watch-delivery marks.
import type { KubeObject } from '../src/api/meta.js';
import { Informer, resources, silentLogger, type ApiClient } from '../src/client/index.js';
import { PROBE_NAMESPACE } from './scale-probes.js';

interface PodLike extends KubeObject {
  spec?: { nodeName?: string };
  status?: { phase?: string };
}

export class PodTracker {
  readonly informer: Informer<PodLike>;
  readonly firstSeen = new Map<string, number>();
  readonly boundAt = new Map<string, number>();
  readonly runningAt = new Map<string, number>();
  /** Each pod's namespace, by uid. */
  private readonly namespaces = new Map<string, string>();

  constructor(
    api: ApiClient,
    private readonly namespacePrefix: string,
    onEvent: (pod: Readonly<PodLike>) => void,
  ) {
    this.informer = new Informer<PodLike>(api, resources.pods, { logger: silentLogger });
    const seen = (pod: Readonly<PodLike>) => {
      onEvent(pod);
      this.note(pod);
    };
    this.informer.addEventHandler({ onAdd: seen, onUpdate: (_old, pod) => seen(pod) });
  }

  async start(): Promise<void> {
    this.informer.start();
    await this.informer.waitForSync();
  }

  stop(): Promise<void> {
    return this.informer.stop();
  }

  /** First seen → seen Running of the pods of `namespace` that run. */
  startups(namespace: string): Array<{ uid: string; ms: number }> {
    const found: Array<{ uid: string; ms: number }> = [];
    for (const [uid, at] of this.runningAt) if (this.namespaces.get(uid) === namespace) found.push({ uid, ms: at - (this.firstSeen.get(uid) ?? at) });
    return found;
  }

  counts(): { seen: number; bound: number; running: number } {
    return { seen: this.firstSeen.size, bound: this.boundAt.size, running: this.runningAt.size };
  }

  private note(pod: Readonly<PodLike>): void {
    const namespace = pod.metadata.namespace ?? '';
    if (!namespace.startsWith(this.namespacePrefix) || namespace === PROBE_NAMESPACE) return;
    const uid = pod.metadata.uid ?? '';
    const now = performance.now();
    if (!this.firstSeen.has(uid)) {
      this.firstSeen.set(uid, now);
      this.namespaces.set(uid, namespace);
    }
    if (pod.spec?.nodeName && !this.boundAt.has(uid)) this.boundAt.set(uid, now);
    if (pod.status?.phase === 'Running' && !this.runningAt.has(uid)) this.runningAt.set(uid, now);
  }
}
