// The custom resources this API server serves, learnt by watching CustomResourceDefinitions in
// the store: every server on a shared store (etcd) sees every CRD, whichever server wrote it.
// A CRD's served versions are served once it is Established and stop when it is gone.
import { apiVersionOf } from '../../api/resource.js';
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import { CRD_GROUP, customResourceDefinitions, type CustomResourceDefinitionInfo } from '../../api/crd/custom-resource.js';
import type { Store, Watch } from '../../storage/store.js';
import { prefixFor } from '../registry/keys.js';
import { versionForm } from './version-form.js';

const REWATCH_MS = 1000;

export class CustomResources {
  readonly crdDef = findResource(CRD_GROUP, 'v1', 'customresourcedefinitions')!;
  private readonly byCrd = new Map<string, CustomResourceDefinitionInfo[]>();
  private byResource = new Map<string, CustomResourceDefinitionInfo>();
  private everything: CustomResourceDefinitionInfo[] = [];
  private readonly listeners = new Set<(crd: KubeObject, deleted: boolean) => void>();
  private watch: Watch | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Bumped on every change, so callers can cache what they derive (discovery, OpenAPI). */
  generation = 0;

  constructor(private readonly store: Store) {}

  async start(): Promise<void> {
    const { items, revision } = await this.store.list({ prefix: prefixFor(this.crdDef) });
    this.byCrd.clear();
    for (const crd of items) this.byCrd.set(crd.metadata.name!, this.build(crd));
    this.reindex();
    for (const crd of items) this.notify(crd, false);
    this.watch = this.store.watch(
      { prefix: prefixFor(this.crdDef), fromRevision: revision },
      (event) => {
        const name = event.object.metadata.name!;
        if (event.type === 'DELETED') this.byCrd.delete(name);
        else this.byCrd.set(name, this.build(event.object));
        this.reindex();
        this.notify(event.object, event.type === 'DELETED');
      },
      () => this.restart(),
    );
  }

  /** A broken watch (history compacted, store unavailable) starts again from a fresh list. */
  private restart(): void {
    this.watch?.stop();
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.start().catch(() => this.restart()), REWATCH_MS);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    this.watch?.stop();
    if (this.timer) clearTimeout(this.timer);
  }

  /** Called for every CRD seen, at start and on each change. */
  onChange(listener: (crd: KubeObject, deleted: boolean) => void): void {
    this.listeners.add(listener);
  }

  find(group: string, version: string, plural: string): CustomResourceDefinitionInfo | undefined {
    return this.byResource.get(`${group}/${version}/${plural}`);
  }

  /** Every served version of every established CRD. */
  all(): readonly CustomResourceDefinitionInfo[] {
    return this.everything;
  }

  /** The served versions of one CRD, by its name. */
  ofCrd(name: string): readonly CustomResourceDefinitionInfo[] {
    return this.byCrd.get(name) ?? [];
  }

  private build(crd: KubeObject): CustomResourceDefinitionInfo[] {
    return customResourceDefinitions(crd).map((def) => {
      const storageApiVersion = apiVersionOf({ group: def.group, version: def.storageVersion });
      const view = { apiVersion: apiVersionOf(def), storageApiVersion, applyDefaults: def.applyDefaults };
      return { ...def, storedForm: versionForm(view) };
    });
  }

  private reindex(): void {
    this.everything = [...this.byCrd.values()].flat();
    this.byResource = new Map(this.everything.map((def) => [`${def.group}/${def.version}/${def.plural}`, def]));
    this.generation++;
  }

  private notify(crd: KubeObject, deleted: boolean): void {
    for (const listener of this.listeners) {
      try {
        listener(crd, deleted);
      } catch (error) {
        console.error(`custom resources: ${(error as Error).message}`);
      }
    }
  }
}
