// The cluster's Services and EndpointSlices as the agent sees them: one watch of each, cached,
// read by the three things kube-proxy, CoreDNS and the kubelet do on a Kubernetes node — the
// service rules, the cluster DNS, and the Docker-link environment of new containers.
import type { EndpointSlice, Service } from '../../api/services.js';
import { SERVICE_NAME_LABEL } from '../../api/services.js';
import { byLabel, indexers, Informer, keyOf, resources, type ApiClient, type Logger } from '../../client/index.js';

const SLICE_OWNER_INDEX = 'serviceKey';

export class ServicesNotSyncedError extends Error {
  readonly reason = 'ServicesNotSynced';
  constructor() {
    super('the Services have not been read yet; the container environment cannot be built');
  }
}

export class ServiceDirectory {
  private readonly services: Informer<Service>;
  private readonly slices: Informer<EndpointSlice>;
  private readonly listeners = new Set<() => void>();

  constructor(api: ApiClient, logger?: Logger) {
    const options = logger ? { logger } : {};
    this.services = new Informer<Service>(api, resources.services, options);
    this.slices = new Informer<EndpointSlice>(api, resources.endpointslices, options);
    this.services.addIndexer('namespace', indexers.namespace);
    // A slice's Service is `<namespace>/<kubernetes.io/service-name>`.
    const serviceName = byLabel(SERVICE_NAME_LABEL);
    this.slices.addIndexer(SLICE_OWNER_INDEX, (slice) => serviceName(slice).map((name) => keyOf(slice.metadata.namespace, name)));
    const changed = { onAdd: () => this.notify(), onUpdate: () => this.notify(), onDelete: () => this.notify() };
    this.services.addEventHandler(changed);
    this.slices.addEventHandler(changed);
  }

  start(): void {
    this.services.start();
    this.slices.start();
  }

  async waitForSync(timeoutMs?: number): Promise<void> {
    await Promise.all([this.services.waitForSync(timeoutMs), this.slices.waitForSync(timeoutMs)]);
  }

  hasSynced(): boolean {
    return this.services.hasSynced() && this.slices.hasSynced();
  }

  async stop(): Promise<void> {
    await Promise.all([this.services.stop(), this.slices.stop()]);
  }

  /** Called after every change of a Service or a slice (the callers coalesce). Returns an unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(namespace: string, name: string): Readonly<Service> | undefined {
    return this.services.getByName(namespace, name);
  }

  /** The Services of one namespace; throws ServicesNotSyncedError before the first list. */
  inNamespace(namespace: string): readonly Readonly<Service>[] {
    if (!this.services.hasSynced()) throw new ServicesNotSyncedError();
    return this.services.byIndex('namespace', namespace);
  }

  allServices(): readonly Readonly<Service>[] {
    return this.services.list();
  }

  slicesOf(namespace: string, name: string): readonly Readonly<EndpointSlice>[] {
    return this.slices.byIndex(SLICE_OWNER_INDEX, keyOf(namespace, name));
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
