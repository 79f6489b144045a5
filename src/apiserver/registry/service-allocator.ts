// Cluster IPs and node ports for Services. The addresses are bookkeeping only (Drover routes
// nothing to them yet); allocation scans existing Services so that it works on any store
// without extra state. A race between two creates can hand out one IP twice: acceptable until
// a service proxy depends on uniqueness.
import { isObject, type KubeObject } from '../../api/meta.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { Store } from '../../storage/store.js';
import { badRequest } from '../errors.js';
import { prefixFor } from './keys.js';

/** 10.43.0.0/16, k3s' default service range; .0.1 is kept for the `kubernetes` service. */
const CLUSTER_IP_BASE = (10 << 24) | (43 << 16);
const CLUSTER_IP_SIZE = 1 << 16;
const NODE_PORT_MIN = 30000;
const NODE_PORT_MAX = 32767;

function ipToString(ip: number): string {
  return [24, 16, 8, 0].map((shift) => (ip >>> shift) & 255).join('.');
}

async function existingServices(store: Store, def: ResourceDefinition): Promise<Record<string, unknown>[]> {
  const { items } = await store.list({ prefix: prefixFor(def) });
  return items.map((s) => (isObject(s['spec']) ? s['spec'] : {}));
}

export async function allocateClusterIP(service: KubeObject, store: Store, def: ResourceDefinition): Promise<void> {
  const spec = isObject(service['spec']) ? service['spec'] : (service['spec'] = {});
  if (spec['type'] === 'ExternalName' || spec['clusterIP'] === 'None') return;
  if (typeof spec['clusterIP'] === 'string' && spec['clusterIP'] !== '') {
    spec['clusterIPs'] ??= [spec['clusterIP']];
    return;
  }
  const used = new Set((await existingServices(store, def)).map((s) => s['clusterIP']));
  for (let offset = 10; offset < CLUSTER_IP_SIZE - 1; offset++) {
    const ip = ipToString(CLUSTER_IP_BASE + offset);
    if (!used.has(ip)) {
      spec['clusterIP'] = ip;
      spec['clusterIPs'] = [ip];
      spec['ipFamilies'] ??= ['IPv4'];
      spec['ipFamilyPolicy'] ??= 'SingleStack';
      return;
    }
  }
  throw badRequest('the service cluster IP range is full');
}

export async function allocateNodePorts(service: KubeObject, store: Store, def: ResourceDefinition): Promise<void> {
  const spec = isObject(service['spec']) ? service['spec'] : {};
  if (spec['type'] !== 'NodePort' && spec['type'] !== 'LoadBalancer') return;
  const ports = Array.isArray(spec['ports']) ? spec['ports'].filter(isObject) : [];
  if (!ports.some((p) => p['nodePort'] === undefined)) return;
  const used = new Set<unknown>();
  for (const other of await existingServices(store, def)) {
    for (const p of Array.isArray(other['ports']) ? other['ports'].filter(isObject) : []) used.add(p['nodePort']);
  }
  let next = NODE_PORT_MIN;
  for (const port of ports) {
    if (port['nodePort'] !== undefined) continue;
    while (used.has(next) && next <= NODE_PORT_MAX) next++;
    if (next > NODE_PORT_MAX) throw badRequest('the node port range is full');
    port['nodePort'] = next;
    used.add(next++);
  }
}
