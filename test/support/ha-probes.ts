// Probes for the HA fault test (ha-failover.test.ts): a writer whose every acknowledged write is
// remembered, a watch on one server that resumes on that server and keeps every event, and a
// record of every pod of a Deployment (to catch a pod bound twice or a duplicate created).
import type { KubeObject } from '../../src/api/meta.js';
import { ApiClient, Informer, isAlreadyExists, resources, silentLogger, type TlsConfig } from '../../src/client/index.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates ConfigMaps one after another through a client that fails over, until stopped. */
export class Writer {
  /** name → resourceVersion of every write the API acknowledged. */
  readonly acked = new Map<string, number>();
  /** Acknowledged revisions that were not above the one before (they must never be). */
  readonly backwards: string[] = [];
  private running = true;
  private loop: Promise<void> | undefined;
  private last = 0;

  constructor(private readonly api: ApiClient) {}

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private async run(): Promise<void> {
    for (let i = 0; this.running; i++) {
      const name = `w-${i}`;
      const revision = await this.writeOne(name);
      if (revision === undefined) continue;
      if (revision <= this.last) this.backwards.push(`${name}: ${revision} after ${this.last}`);
      this.last = revision;
      this.acked.set(name, revision);
      await sleep(40);
    }
  }

  /** The write's revision once acknowledged; a write whose outcome was unknown is checked by reading it. */
  private async writeOne(name: string): Promise<number | undefined> {
    const configmaps = this.api.resource(resources.configmaps, 'default');
    while (this.running) {
      try {
        const created = await configmaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { at: String(Date.now()) } });
        return Number(created.metadata.resourceVersion);
      } catch (error) {
        // An earlier attempt landed though its answer was lost: it is there, so acknowledged now.
        if (isAlreadyExists(error)) return Number((await configmaps.get(name).catch(() => undefined))?.metadata.resourceVersion ?? NaN) || undefined;
        await sleep(200);
      }
    }
    return undefined;
  }
}

export interface SeenEvent {
  type: string;
  name: string;
  revision: number;
}

/** Watches ConfigMaps on one server only, resuming there from the last revision after a cut. */
export class ServerWatch {
  readonly events: SeenEvent[] = [];
  private readonly api: ApiClient;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private handle: { stop(): void } | undefined;
  lastRevision: string;
  /** Watch requests made: 1 while the stream was never cut. */
  watches = 0;

  constructor(url: string, tls: TlsConfig, fromRevision: string) {
    this.api = new ApiClient({ server: url, namespace: 'default', tls }, { userAgent: 'ha-test-watch' });
    this.lastRevision = fromRevision;
  }

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.handle?.stop();
    await this.loop;
    this.api.close();
  }

  private async run(): Promise<void> {
    const configmaps = this.api.resource(resources.configmaps, 'default');
    while (!this.stopped) {
      const watch = configmaps.watch({ resourceVersion: this.lastRevision, allowWatchBookmarks: true }, (event) => {
        if (event.type === 'ERROR') return;
        this.lastRevision = event.object.metadata.resourceVersion ?? this.lastRevision;
        if (event.type === 'BOOKMARK') return;
        this.events.push({ type: event.type, name: (event.object as KubeObject).metadata.name ?? '', revision: Number(this.lastRevision) });
      });
      this.handle = watch;
      this.watches++;
      await watch.done;
      if (!this.stopped) await sleep(200);
    }
  }
}

/** Every pod of one Deployment ever seen, with the nodes it was bound to. */
export class PodRecord {
  readonly uids = new Set<string>();
  /** Pods seen bound to one node and later to another. */
  readonly rebound: string[] = [];
  private readonly nodeOf = new Map<string, string>();
  readonly informer: Informer<KubeObject>;

  constructor(api: ApiClient, selector: string) {
    this.informer = new Informer<KubeObject>(api, resources.pods, { namespace: 'default', labelSelector: selector, logger: silentLogger });
    const see = (pod: KubeObject) => {
      const uid = pod.metadata.uid ?? '';
      this.uids.add(uid);
      const node = (pod['spec'] as { nodeName?: string } | undefined)?.nodeName;
      if (!node) return;
      const before = this.nodeOf.get(uid);
      if (before !== undefined && before !== node) this.rebound.push(`${pod.metadata.name}: ${before} then ${node}`);
      this.nodeOf.set(uid, node);
    };
    this.informer.addEventHandler({ onAdd: see, onUpdate: (_old, pod) => see(pod) });
  }

  /** Live (not terminating) pods now. */
  live(): KubeObject[] {
    return this.informer.list().filter((pod) => !pod.metadata.deletionTimestamp) as KubeObject[];
  }
}
