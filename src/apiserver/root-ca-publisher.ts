// Kubernetes' root-ca-cert-publisher, inside the server (it holds the CA): every namespace that
// is not terminating has a ConfigMap `kube-root-ca.crt` whose `ca.crt` is the cluster CA, made
// when the namespace appears and put back when someone changes or deletes it. Pods' projected
// kube-api-access volumes read it, so a pod can trust the API server it is given a token for.
// Every server on a shared store runs it: creates that lose a race get 409, updates carry the
// read revision, and either way the next event looks again.
import type { KubeObject } from '../api/meta.js';
import { findResource } from '../api/registry.js';
import { StoreMirror } from '../storage/store-mirror.js';
import { ROOT_CA_CONFIGMAP } from './admission/service-account-admission.js';
import { prefixFor } from './registry/keys.js';
import type { ObjectRegistry, WriteOptions } from './registry/object-registry.js';

const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';
const RETRY_MS = 1000;
const WRITE: WriteOptions = { dryRun: false, fieldManager: 'root-ca-cert-publisher', fieldValidation: 'Strict' };

export class RootCaPublisher {
  private readonly namespaces = findResource('', 'v1', 'namespaces')!;
  private readonly configMaps = findResource('', 'v1', 'configmaps')!;
  private readonly mirror: StoreMirror<null>;
  private readonly pending = new Set<string>();
  private readonly failed = new Set<string>();
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly registry: ObjectRegistry,
    private readonly caPem: string,
  ) {
    // Only the events matter: each namespace event, and each event of a kube-root-ca.crt, asks for a look.
    this.mirror = new StoreMirror<null>(registry.store, {
      name: 'root CA publisher',
      prefixes: [prefixFor(this.namespaces), prefixFor(this.configMaps)],
      fresh: () => null,
      // Names come from the store key where there is one: every ConfigMap write of the cluster
      // passes here, and parsing each to find the few that matter would cost every writer.
      apply: (_state, index, event) => {
        const [namespace, name] = event.key ? event.key.split('/').slice(-2) : [event.object.metadata.namespace, event.object.metadata.name];
        if (index === 0) this.enqueue(name ?? '');
        else if (name === ROOT_CA_CONFIGMAP) this.enqueue(namespace ?? '');
      },
    });
  }

  async start(): Promise<void> {
    await this.mirror.start();
    // Resolves once the namespaces there are now have theirs (or are retried later).
    await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.mirror.stop();
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private enqueue(namespace: string): void {
    if (!namespace || this.stopped) return;
    this.pending.add(namespace);
    this.running ??= this.drain().finally(() => (this.running = undefined));
  }

  private async drain(): Promise<void> {
    // Let the events of one burst (a list, a resync) gather before the first write.
    await Promise.resolve();
    while (this.pending.size > 0 && !this.stopped) {
      const namespace = this.pending.values().next().value as string;
      this.pending.delete(namespace);
      try {
        await this.reconcile(namespace);
      } catch (error) {
        // Conflicts, a namespace going away, a store hiccup: look again a moment later.
        if (this.stopped) return;
        const code = (error as { code?: number }).code;
        if (code !== 409 && code !== 404 && code !== 403) console.error(`root CA publisher: ${namespace}: ${(error as Error).message}`);
        this.retryLater(namespace);
      }
    }
  }

  private retryLater(namespace: string): void {
    this.failed.add(namespace);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const again = [...this.failed];
      this.failed.clear();
      for (const name of again) this.enqueue(name);
    }, RETRY_MS);
    this.timer.unref();
  }

  private async reconcile(name: string): Promise<void> {
    const namespace = await this.registry.find(this.namespaces, undefined, name);
    if (!namespace || namespace.metadata.deletionTimestamp) return;
    const existing = await this.registry.find(this.configMaps, name, ROOT_CA_CONFIGMAP);
    if (existing && (existing['data'] as Record<string, string> | undefined)?.['ca.crt'] === this.caPem) return;
    const body: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        ...(existing?.metadata ?? {}),
        name: ROOT_CA_CONFIGMAP,
        namespace: name,
        annotations: { ...existing?.metadata.annotations, 'kubernetes.io/description': DESCRIPTION },
      },
      data: { 'ca.crt': this.caPem },
    };
    if (existing) await this.registry.update(this.configMaps, name, ROOT_CA_CONFIGMAP, body, WRITE);
    else await this.registry.create(this.configMaps, name, body, WRITE);
  }
}
