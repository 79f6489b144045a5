// Objects every cluster has from the start.
import { findResource } from '../api/registry.js';
import type { ObjectRegistry } from './registry/object-registry.js';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** Makes the system namespaces that are missing; resolves with those this call made (a new cluster's). */
export async function ensureSystemNamespaces(registry: ObjectRegistry): Promise<string[]> {
  const def = findResource('', 'v1', 'namespaces')!;
  const made: string[] = [];
  for (const name of SYSTEM_NAMESPACES) {
    if (await registry.find(def, undefined, name)) continue;
    try {
      await registry.create(
        def,
        undefined,
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
        {
          dryRun: false,
          fieldManager: 'drover',
          fieldValidation: 'Strict',
        },
      );
      made.push(name);
    } catch (error) {
      // Servers sharing etcd start together: another one made it between our read and create.
      if ((error as { code?: number }).code !== 409) throw error;
    }
  }
  return made;
}
