// Every resource an API server serves now: the built-in kinds, then the custom resources, each
// group's versions in Kubernetes' priority order (discovery names the first one preferred).
import { findResource, resourceDefinitions } from '../../api/registry.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { compareVersionPriority } from '../../api/crd/version-priority.js';
import type { CustomResourceDefinitionInfo } from '../../api/crd/custom-resource.js';
import type { CustomResources } from './custom-resources.js';

let cachedFor: { resources: CustomResources; generation: number; all: readonly ResourceDefinition[]; stored: readonly ResourceDefinition[] } | undefined;

/**
 * With `oneVersionEach`, a kind served in several versions counts once (a CRD's storage version
 * where served; a built-in's stored one): they address the same objects, as a namespace's cleanup
 * needs them.
 */
export function servedDefinitions(resources: CustomResources, oneVersionEach = false): readonly ResourceDefinition[] {
  if (cachedFor?.resources !== resources || cachedFor.generation !== resources.generation) {
    const custom = [...resources.all()].sort((a, b) => compareVersionPriority(a.version, b.version));
    // A built-in kind stored in another's form (autoscaling/v1, events.k8s.io) addresses that kind's objects.
    const storedBuiltIns = resourceDefinitions.filter((def) => !def.storedForm);
    cachedFor = { resources, generation: resources.generation, all: [...resourceDefinitions, ...custom], stored: [...storedBuiltIns, ...oneEach(custom)] };
  }
  return oneVersionEach ? cachedFor.stored : cachedFor.all;
}

function oneEach(defs: readonly CustomResourceDefinitionInfo[]): CustomResourceDefinitionInfo[] {
  const byCrd = new Map<string, CustomResourceDefinitionInfo>();
  for (const def of defs) {
    const chosen = byCrd.get(def.crdName);
    if (!chosen || (def.version === def.storageVersion && chosen.version !== chosen.storageVersion)) byCrd.set(def.crdName, def);
  }
  return [...byCrd.values()];
}

/** The kind a resource path names: a built-in one, else a served version of a custom resource. */
export function servedDefinition(resources: CustomResources, group: string, version: string, plural: string): ResourceDefinition | undefined {
  return findResource(group, version, plural) ?? resources.find(group, version, plural);
}
