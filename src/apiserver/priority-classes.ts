// The built-in PriorityClasses every cluster has from the start, as Kubernetes' scheduling
// storage writes them when the API server starts.
import { findResource } from '../api/registry.js';
import { SYSTEM_PRIORITY_CLASSES } from '../api/scheduling/priority.js';
import type { ObjectRegistry } from './registry/object-registry.js';

export async function ensureSystemPriorityClasses(registry: ObjectRegistry): Promise<void> {
  const def = findResource('scheduling.k8s.io', 'v1', 'priorityclasses')!;
  for (const { name, value, description } of SYSTEM_PRIORITY_CLASSES) {
    if (await registry.find(def, undefined, name)) continue;
    const pc = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, description, preemptionPolicy: 'PreemptLowerPriority' };
    try {
      await registry.create(def, undefined, pc, { dryRun: false, fieldManager: 'drover', fieldValidation: 'Strict' });
    } catch (error) {
      // Servers sharing etcd start together: another one made it between our read and create.
      if ((error as { code?: number }).code !== 409) throw error;
    }
  }
}
