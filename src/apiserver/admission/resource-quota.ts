// Kubernetes' ResourceQuota admission plugin. A write that would take a namespace past any of its
// quotas is refused (403 "exceeded quota: ..."); one that fits is charged to each quota that
// counts it by writing the quota's status.used with the quota's revision as precondition, as
// Kubernetes does. Two creates racing for the last unit both read the same usage, but only one
// write lands; the other re-reads and is refused, so concurrent creates never overshoot.
//
// What a create is charged is kept even if the create then fails (a name already taken): the
// quota controller's recalculation gives it back, as in Kubernetes. Dry runs check but charge
// nothing. Unlike Kubernetes, a quota whose status does not yet cover its spec (just created, or
// spec.hard changed) is enforced at once: the admission counts the namespace itself instead of
// refusing with "status unknown".
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject } from '../../api/meta.js';
import { findResource, resourceDefinitions } from '../../api/registry.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { addMaps, compare, isZero, mask, prettyPrint, subtractMapsNonNegative, toResourceList, ZERO, type QuantityMap } from '../../api/quota/quantity.js';
import { recalculateUsage, specHard, statusOf, type NamespaceLister } from '../../api/quota/recalculate.js';
import { quotaCounts } from '../../api/quota/scopes.js';
import { limitedUsage, missingDeclarations, objectUsage, type ResourceKind } from '../../api/quota/usage.js';
import { RevisionConflictError } from '../../storage/errors.js';
import type { Store } from '../../storage/store.js';
import { whenReady, type MaybePromise } from '../../util/maybe-promise.js';
import type { AdmissionObjects } from './admission-objects.js';
import { conflict, forbidden } from '../errors.js';
import { keyFor, prefixFor } from '../registry/keys.js';
import type { AdmissionRequest, ValidatingAdmission } from './validating-admission.js';

/** Re-reads after losing a race for a quota's status; each loser waits a little, at random, so a burst spreads out. */
const MAX_ATTEMPTS = 50;

/** Kinds whose updates can change usage (a Service turned NodePort); Kubernetes charges other kinds on create only. */
const CHARGED_ON_UPDATE = new Set(['services', 'persistentvolumeclaims']);

interface Charge {
  quota: KubeObject;
  hard: QuantityMap;
  used: QuantityMap;
}

function qualifiedName(def: ResourceDefinition): string {
  return def.group ? `${def.plural}.${def.group}` : def.plural;
}

export class ResourceQuotaAdmission implements ValidatingAdmission {
  private readonly quotas = findResource('', 'v1', 'resourcequotas')!;

  constructor(
    private readonly store: Store,
    private readonly policies: AdmissionObjects,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Namespaced objects' creates, and the updates that can change what they are charged. */
  validates(request: AdmissionRequest): boolean {
    const { def, object } = request;
    if (request.subresource || !def.namespaced || !object.metadata.namespace) return false;
    return request.operation === 'create' || (def.group === '' && CHARGED_ON_UPDATE.has(def.plural) && request.old !== undefined);
  }

  validate(request: AdmissionRequest): MaybePromise<string[]> {
    if (!this.validates(request)) return [];
    // Most namespaces have no quota: ask the mirror first, so their writes skip counting usage.
    return whenReady(this.policies.quotas(request.object.metadata.namespace!), (mirrored) => (mirrored.length === 0 ? [] : this.chargeAll(request, mirrored)));
  }

  /** Charges the write to every quota that counts it, re-reading the quotas after a lost race. */
  private async chargeAll(request: AdmissionRequest, mirrored: readonly KubeObject[]): Promise<string[]> {
    const { def, object } = request;
    const namespace = object.metadata.namespace!;
    const kind: ResourceKind = { group: def.group, plural: def.plural };
    const now = this.now();
    let delta = objectUsage(kind, object, now);
    if (request.operation === 'update') delta = subtractMapsNonNegative(delta, objectUsage(kind, request.old!, now));
    if (isZero(delta)) return [];
    // Quotas already charged when a later one lost a race: a retry must not charge them twice.
    const charged = new Set<string>();
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      // The mirror first; after a lost race, the store itself (the mirror may not have the winner's write yet).
      const quotas = attempt === 0 ? mirrored : (await this.store.list({ prefix: prefixFor(this.quotas, namespace) })).items;
      if (quotas.length === 0) return [];
      try {
        await this.charge(request, kind, delta, quotas, charged, now);
        return [];
      } catch (error) {
        if (!(error instanceof RevisionConflictError)) throw error;
        await sleep(Math.random() * Math.min(50, 2 * (attempt + 1)));
      }
    }
    throw conflict({ group: '', plural: 'resourcequotas', name: '' }, "too many concurrent changes to the namespace's quotas; try again");
  }

  private async charge(
    request: AdmissionRequest,
    kind: ResourceKind,
    delta: QuantityMap,
    quotas: readonly KubeObject[],
    charged: Set<string>,
    now: Date,
  ): Promise<void> {
    const { def, object } = request;
    const name = object.metadata.name ?? '';
    const refuse = (message: string) =>
      forbidden(`${qualifiedName(def)} ${JSON.stringify(name)} is forbidden: ${message}`, { group: def.group, plural: def.plural, name });
    const charges: Charge[] = [];
    const sorted = [...quotas].sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
    for (const quota of sorted) {
      const quotaName = quota.metadata.name ?? '';
      if (charged.has(quotaName) || !quotaCounts(quota, kind, object)) continue;
      const hard = specHard(quota);
      if (kind.group === '' && kind.plural === 'pods' && request.operation === 'create') {
        const missing = missingDeclarations(object, hard.keys());
        if (missing.length > 0) throw refuse(`failed quota: ${quotaName}: ${missing.join('; ')}`);
      }
      const requested = limitedUsage(delta, hard);
      if (isZero(requested)) continue;
      const used = await this.currentUsage(quota, hard, now);
      const after = addMaps(used, requested);
      const exceeded = [...requested.keys()].filter((resource) => compare(after.get(resource) ?? ZERO, hard.get(resource)!) > 0);
      if (exceeded.length > 0) {
        throw refuse(
          `exceeded quota: ${quotaName}, requested: ${prettyPrint(mask(requested, exceeded))}, used: ${prettyPrint(mask(used, exceeded))}, limited: ${prettyPrint(mask(hard, exceeded))}`,
        );
      }
      charges.push({ quota, hard, used: after });
    }
    if (request.dryRun) return;
    // Straight to the store: this runs inside the registry's admission of another write, and a
    // charge through the registry would admit the quota's own update (this plugin again).
    for (const { quota, used } of charges) {
      const updated = structuredClone(quota);
      const spec = (updated['spec'] ?? {}) as Record<string, unknown>;
      updated['status'] = { hard: { ...(spec['hard'] as Record<string, unknown>) }, used: toResourceList(used) };
      await this.store.update(keyFor(this.quotas, quota.metadata.namespace, quota.metadata.name!), updated, {
        expectedRevision: Number(quota.metadata.resourceVersion),
      });
      charged.add(quota.metadata.name!);
    }
  }

  /** status.used when it covers every resource of spec.hard; otherwise counted from the namespace now. */
  private async currentUsage(quota: KubeObject, hard: QuantityMap, now: Date): Promise<QuantityMap> {
    const { used } = statusOf(quota);
    if ([...hard.keys()].every((resource) => used.has(resource))) return used;
    const counted = await recalculateUsage(quota, this.lister(quota.metadata.namespace!), now);
    return new Map([...used, ...counted]);
  }

  private lister(namespace: string): NamespaceLister {
    return async (kind) => {
      const def = resourceDefinitions.find((d) => d.group === kind.group && d.plural === kind.plural && d.namespaced);
      if (!def) return undefined;
      return (await this.store.list({ prefix: prefixFor(def, namespace) })).items;
    };
  }
}
