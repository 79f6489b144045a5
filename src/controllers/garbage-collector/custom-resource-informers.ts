// The custom resources the garbage collector follows, found as Kubernetes' collector finds them
// (by discovery, here by watching CustomResourceDefinitions): one informer per established CRD,
// on its storage version, started when the CRD is established and stopped when it goes. Owner
// references name a custom kind in any served version, so every version maps to the resource.
// A CRD being deleted takes its custom resources with it; its informer stops at once, before their
// DELETED events come, so what it held is handed back as deleted (or the graph would keep them
// as live owners and never collect their dependents).
import type { KubeObject } from '../../api/meta.js';
import { Informer, resources, apiVersionOf, type ResourceRef } from '../../client/index.js';
import type { ControllerContext } from '../context.js';

interface Watched {
  resource: ResourceRef;
  informer: Informer;
  /** Undoes what the collector attached to the informer. */
  detach: () => void;
  kinds: string[];
}

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : {});
const list = (value: unknown): Obj[] => (Array.isArray(value) ? value.map(obj) : []);

export class CustomResourceInformers {
  private readonly byCrd = new Map<string, Watched>();
  private readonly byKind = new Map<string, ResourceRef>();
  private readonly detachCrds: () => void;

  constructor(
    private readonly ctx: ControllerContext,
    /** Attaches the collector to a resource's informer; returns how to detach. */
    private readonly attach: (resource: ResourceRef, informer: Informer) => () => void,
    /** Takes the objects of a deleted CRD's informer, as deleted. */
    private readonly deleted: (objects: readonly Readonly<KubeObject>[]) => void,
  ) {
    const crds = ctx.factory.informerFor(resources.customresourcedefinitions);
    this.detachCrds = crds.addEventHandler({
      onAdd: (crd) => this.sync(crd),
      onUpdate: (_old, crd) => this.sync(crd),
      onDelete: (crd) => this.forget(crd.metadata.name!, true),
    });
  }

  /** The custom resource of an apiVersion + kind, in the version the collector watches it. */
  resourceForKind(apiVersion: string, kind: string): ResourceRef | undefined {
    return this.byKind.get(`${apiVersion}/${kind}`);
  }

  async stop(): Promise<void> {
    this.detachCrds();
    await Promise.all([...this.byCrd.keys()].map((name) => this.forget(name, false)));
  }

  private sync(crd: KubeObject): void {
    const name = crd.metadata.name!;
    const resource = storageResource(crd);
    const current = this.byCrd.get(name);
    if (current && resource && sameResource(current.resource, resource)) return;
    // Being deleted, its custom resources go too; another storage version keeps them.
    void this.forget(name, !resource && crd.metadata.deletionTimestamp !== undefined);
    if (!resource) return;
    const informer = new Informer(this.ctx.api, resource);
    const detach = this.attach(resource, informer);
    const group = resource.group;
    const kinds = list(obj(crd['spec'])['versions'])
      .filter((v) => v['served'] === true)
      .map((v) => `${group}/${String(v['name'])}/${resource.kind}`);
    for (const kind of kinds) this.byKind.set(kind, resource);
    this.byCrd.set(name, { resource, informer, detach, kinds });
    informer.start();
  }

  private async forget(name: string, crdDeleted: boolean): Promise<void> {
    const watched = this.byCrd.get(name);
    if (!watched) return;
    this.byCrd.delete(name);
    for (const kind of watched.kinds) this.byKind.delete(kind);
    watched.detach();
    if (crdDeleted) this.deleted(watched.informer.list());
    await watched.informer.stop();
  }
}

/** The storage version of an established CRD as a resource, under its accepted names. */
function storageResource(crd: KubeObject): ResourceRef | undefined {
  const status = obj(crd['status']);
  const established = list(status['conditions']).some((c) => c['type'] === 'Established' && c['status'] === 'True');
  const names = obj(status['acceptedNames']);
  const spec = obj(crd['spec']);
  const storage = list(spec['versions']).find((v) => v['storage'] === true && v['served'] === true) ?? list(spec['versions']).find((v) => v['served'] === true);
  if (!established || crd.metadata.deletionTimestamp || !storage || typeof names['plural'] !== 'string' || typeof names['kind'] !== 'string') return undefined;
  return {
    group: String(spec['group']),
    version: String(storage['name']),
    plural: names['plural'],
    kind: names['kind'],
    namespaced: spec['scope'] === 'Namespaced',
  };
}

function sameResource(a: ResourceRef, b: ResourceRef): boolean {
  return apiVersionOf(a) === apiVersionOf(b) && a.plural === b.plural && a.kind === b.kind && a.namespaced === b.namespaced;
}
