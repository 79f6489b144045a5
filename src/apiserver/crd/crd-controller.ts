// The CRD controllers Kubernetes runs inside its API server, in one: names (NamesAccepted: no
// other resource of the group uses the plural, singular, short names, kind or list kind),
// establishing (Established once the names are accepted) and cleanup (a deleted CRD is
// Terminating until every custom resource it defines is deleted; then its finalizer goes and the
// CRD with it). Every API server on a shared store runs it without a Lease: each write carries the
// CRD's resourceVersion, so of two servers one lands and the other sees the result and agrees.
import type { KubeObject } from '../../api/meta.js';
import { resourceDefinitions } from '../../api/registry.js';
import { arr, obj, text } from '../../api/validation/util.js';
import { crdCondition } from '../../api/crd/custom-resource.js';
import { timestamp } from '../registry/metadata.js';
import type { ObjectRegistry } from '../registry/object-registry.js';
import type { CustomResources } from './custom-resources.js';
import { CLEANUP_FINALIZER } from './crd-strategy.js';
import { jsonEqual } from '../../util/json-equal.js';
import { RetryingPasses } from '../retrying-passes.js';
import { METRICS_GROUP } from '../resource-metrics/metrics-api.js';

const MANAGER = 'apiextensions-apiserver';

type Condition = { type: string; status: string; reason: string; message: string; lastTransitionTime?: string };

export class CrdController {
  private readonly passes = new RetryingPasses((name) => this.sync(name), 'crd controller');

  constructor(
    private readonly registry: ObjectRegistry,
    private readonly resources: CustomResources,
  ) {
    resources.onChange((crd, deleted) => {
      if (!deleted) this.passes.add(crd.metadata.name!);
    });
  }

  stop(): void {
    this.passes.stop();
  }

  /** One pass over a CRD; false when it must be looked at again later. */
  private async sync(name: string): Promise<boolean> {
    const crd = await this.registry.find(this.resources.crdDef, undefined, name);
    if (!crd) return true;
    if (crd.metadata.deletionTimestamp) return this.cleanUp(crd);
    const status = obj(crd['status']);
    const conflict = await this.nameConflict(crd);
    const names = obj(obj(crd['spec'])['names']);
    const conditions: Condition[] = conflict
      ? [
          { type: 'NamesAccepted', status: 'False', reason: conflict.reason, message: conflict.message },
          ...(crdCondition(crd, 'Established')?.['status'] === 'True'
            ? []
            : [{ type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' }]),
        ]
      : [
          { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' },
          { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
        ];
    const acceptedNames = conflict ? status['acceptedNames'] : names;
    await this.writeStatus(crd, conditions, acceptedNames);
    return true;
  }

  /** The first name of the CRD that another resource of its group already has, if any. */
  private async nameConflict(crd: KubeObject): Promise<{ reason: string; message: string } | undefined> {
    const spec = obj(crd['spec']);
    const group = text(spec['group']);
    const names = obj(spec['names']);
    // A group the server serves by itself (the resource metrics) takes no custom resources.
    if (group === METRICS_GROUP) return { reason: 'NameConflict', message: `the group "${group}" is served by the API server itself` };
    const taken = { resources: new Set<string>(), kinds: new Set<string>() };
    for (const def of resourceDefinitions) {
      if (def.group !== group) continue;
      [def.plural, def.singular, ...def.shortNames].forEach((n) => taken.resources.add(n));
      [def.kind, def.listKind].forEach((k) => taken.kinds.add(k));
    }
    const { items } = await this.registry.collection(this.resources.crdDef).list();
    for (const other of items) {
      if (other.metadata.name === crd.metadata.name || text(obj(other['spec'])['group']) !== group) continue;
      const accepted = obj(obj(other['status'])['acceptedNames']);
      [accepted['plural'], accepted['singular'], ...arr(accepted['shortNames'])]
        .map(text)
        .filter(Boolean)
        .forEach((n) => taken.resources.add(n));
      [accepted['kind'], accepted['listKind']]
        .map(text)
        .filter(Boolean)
        .forEach((k) => taken.kinds.add(k));
    }
    for (const resourceName of [names['plural'], names['singular'], ...arr(names['shortNames'])].map(text)) {
      if (resourceName && taken.resources.has(resourceName)) return { reason: 'NameConflict', message: `"${resourceName}" is already in use` };
    }
    for (const kind of [names['kind'], names['listKind']].map(text)) {
      if (kind && taken.kinds.has(kind)) return { reason: 'KindConflict', message: `"${kind}" is already in use` };
    }
    return undefined;
  }

  /** Deletes every custom resource of a terminating CRD; once none is left, lets the CRD go. */
  private async cleanUp(crd: KubeObject): Promise<boolean> {
    if (!(crd.metadata.finalizers ?? []).includes(CLEANUP_FINALIZER)) return true;
    const terminating = { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' };
    await this.writeStatus(crd, [terminating], obj(crd['status'])['acceptedNames']);
    const def = this.resources.ofCrd(crd.metadata.name!)[0];
    if (def) {
      const { items } = await this.registry.collection(def).list();
      for (const item of items) {
        if (item.metadata.deletionTimestamp) continue;
        await this.registry.delete(def, item.metadata.namespace, item.metadata.name!, { dryRun: false }).catch(ignoreNotFound);
      }
      if ((await this.registry.collection(def).list({ limit: 1 })).items.length > 0) return false;
    }
    const current = await this.registry.find(this.resources.crdDef, undefined, crd.metadata.name!);
    if (!current) return true;
    current.metadata.finalizers = (current.metadata.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
    await this.registry.update(this.resources.crdDef, undefined, crd.metadata.name!, current, {
      dryRun: false,
      fieldManager: MANAGER,
      fieldValidation: 'Ignore',
    });
    return true;
  }

  /** Writes the conditions (keeping others and transition times that did not change) and accepted names. */
  private async writeStatus(crd: KubeObject, wanted: Condition[], acceptedNames: unknown): Promise<void> {
    const status = obj(crd['status']);
    const conditions = arr(status['conditions']).map(obj) as unknown as Condition[];
    const next = conditions.filter((c) => !wanted.some((w) => w.type === c.type));
    for (const condition of wanted) {
      const previous = conditions.find((c) => c.type === condition.type);
      const since = previous && previous.status === condition.status ? previous.lastTransitionTime : timestamp();
      next.push({ ...condition, lastTransitionTime: since ?? timestamp() });
    }
    const order = ['NamesAccepted', 'Established', 'Terminating'];
    next.sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type));
    const updated = { ...status, conditions: next, ...(acceptedNames === undefined ? {} : { acceptedNames }) };
    if (jsonEqual(updated, status)) return;
    const body = { ...crd, status: updated };
    await this.registry.update(this.resources.crdDef, undefined, crd.metadata.name!, body, {
      dryRun: false,
      fieldManager: MANAGER,
      fieldValidation: 'Ignore',
      subresource: 'status',
    });
  }
}

function ignoreNotFound(error: unknown): void {
  if ((error as { code?: number }).code !== 404) throw error;
}
