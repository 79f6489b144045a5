// A quota's status.used from scratch: every object of the namespace it could limit, added up.
// The quota controller does this on changes and periodically; the admission does it for a quota
// whose status does not cover its spec yet (a new quota, or a changed spec.hard).
import type { KubeObject } from '../meta.js';
import { isObject } from '../meta.js';
import { addMaps, quantityMap, ZERO, type QuantityMap } from './quantity.js';
import { quotaCounts } from './scopes.js';
import { kindCounted, limitedUsage, objectUsage, type ResourceKind } from './usage.js';

/** The namespace's objects of a kind; undefined when this reader cannot list that kind (used stays unknown). */
export type NamespaceLister = (kind: ResourceKind) => Promise<readonly KubeObject[] | undefined>;

export function specHard(quota: KubeObject): QuantityMap {
  return quantityMap(isObject(quota['spec']) ? quota['spec']['hard'] : undefined);
}

export function statusOf(quota: KubeObject): { hard: QuantityMap; used: QuantityMap } {
  const status = isObject(quota['status']) ? quota['status'] : {};
  return { hard: quantityMap(status['hard']), used: quantityMap(status['used']) };
}

/** Each kind the quota's hard resources count, once. */
export function kindsLimited(hard: QuantityMap): ResourceKind[] {
  const kinds = new Map<string, ResourceKind>();
  for (const name of hard.keys()) {
    const kind = kindCounted(name);
    if (kind) kinds.set(`${kind.group}/${kind.plural}`, kind);
  }
  return [...kinds.values()];
}

/**
 * What the namespace uses of each resource the quota limits (0 for those nothing uses). Resources
 * of kinds the lister cannot read keep the quota's current status.used.
 */
export async function recalculateUsage(quota: KubeObject, lister: NamespaceLister, now: Date): Promise<QuantityMap> {
  const hard = specHard(quota);
  const previous = statusOf(quota).used;
  let used: QuantityMap = new Map();
  for (const name of hard.keys()) used.set(name, ZERO);
  for (const kind of kindsLimited(hard)) {
    const objects = await lister(kind);
    if (!objects) {
      for (const name of hard.keys()) {
        const counted = kindCounted(name);
        if (counted?.group === kind.group && counted.plural === kind.plural) used.set(name, previous.get(name) ?? ZERO);
      }
      continue;
    }
    for (const object of objects) {
      if (!quotaCounts(quota, kind, object)) continue;
      used = addMaps(used, limitedUsage(objectUsage(kind, object, now), hard));
    }
  }
  return used;
}
