// One informer per (resource, namespace, selectors) for a whole process, so that the scheduler,
// the controllers and the agent code running in one `drover up` share one list, one watch and
// one cache per kind instead of each opening their own.
import type { KubeObject } from '../api/meta.js';
import type { ApiClient } from './api-client.js';
import { Informer, type InformerOptions } from './informer.js';
import type { Logger } from './logger.js';
import { formatSelector, type Selector } from './resource-client.js';
import type { ResourceRef } from './resources.js';

export interface InformerScope {
  namespace?: string;
  labelSelector?: Selector;
  fieldSelector?: Selector;
}

export interface SharedInformerFactoryOptions {
  /** Resync of every informer made here; 0 (default) is off. */
  resyncPeriodMs?: number;
  /** Default namespace of informers that name none (unset: all namespaces). */
  namespace?: string;
  logger?: Logger;
}

export class SharedInformerFactory {
  private readonly informers = new Map<string, Informer<KubeObject>>();
  private started = false;

  constructor(
    private readonly api: ApiClient,
    private readonly options: SharedInformerFactoryOptions = {},
  ) {}

  /**
   * The shared informer for this resource and scope, created on first request. Informers
   * requested after start() are started at once.
   */
  informerFor<T extends KubeObject = KubeObject>(resource: ResourceRef, scope: InformerScope = {}): Informer<T> {
    const namespace = resource.namespaced ? (scope.namespace ?? this.options.namespace) : undefined;
    const key = [
      resource.group,
      resource.version,
      resource.plural,
      namespace ?? '',
      formatSelector(scope.labelSelector) ?? '',
      formatSelector(scope.fieldSelector) ?? '',
    ].join('|');
    let informer = this.informers.get(key) as Informer<T> | undefined;
    if (!informer) {
      const options: InformerOptions = { ...scope };
      if (namespace === undefined) delete options.namespace;
      else options.namespace = namespace;
      if (this.options.resyncPeriodMs !== undefined) options.resyncPeriodMs = this.options.resyncPeriodMs;
      if (this.options.logger !== undefined) options.logger = this.options.logger;
      informer = new Informer<T>(this.api, resource, options);
      this.informers.set(key, informer as unknown as Informer<KubeObject>);
      if (this.started) informer.start();
    }
    return informer;
  }

  start(): void {
    this.started = true;
    for (const informer of this.informers.values()) informer.start();
  }

  /** Waits until every informer requested so far has synced. */
  async waitForSync(timeoutMs?: number): Promise<void> {
    await Promise.all([...this.informers.values()].map((informer) => informer.waitForSync(timeoutMs)));
  }

  async stop(): Promise<void> {
    this.started = false;
    await Promise.all([...this.informers.values()].map((informer) => informer.stop()));
  }
}
