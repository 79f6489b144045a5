// A cluster IP or node port held by two Services. The API server's address book refuses such a
// create, so one only appears through a store written behind its back (a restore, a bug, two
// servers racing). Which Service should give its address up is a person's call, and a Service's
// cluster IP cannot be changed in place: these are reported, never repaired.
import { refOf, type Check, type Finding } from '../types.js';
import type { KubeObject } from '../../api/meta.js';

interface ServiceSpec {
  clusterIP?: string;
  clusterIPs?: string[];
  ports?: Array<{ nodePort?: number; protocol?: string }>;
}

function addressesOf(service: KubeObject): string[] {
  const spec = (service['spec'] ?? {}) as ServiceSpec;
  const ips = new Set([...(spec.clusterIPs ?? []), ...(spec.clusterIP ? [spec.clusterIP] : [])].filter((ip) => ip !== '' && ip !== 'None'));
  // A node port is a host port for one protocol: two Services may share it only across protocols.
  const ports = new Set((spec.ports ?? []).filter((p) => p.nodePort).map((p) => `node port ${p.nodePort}/${p.protocol ?? 'TCP'}`));
  return [...[...ips].map((ip) => `cluster IP ${ip}`), ...ports];
}

export const serviceAddressCollisions: Check = async (snapshot) => {
  const holders = new Map<string, KubeObject[]>();
  for (const service of snapshot.services) {
    for (const address of addressesOf(service)) holders.set(address, [...(holders.get(address) ?? []), service]);
  }
  const findings: Finding[] = [];
  for (const [address, services] of holders) {
    if (services.length < 2) continue;
    const names = services.map((s) => `${s.metadata.namespace}/${s.metadata.name}`).join(', ');
    for (const service of services) {
      findings.push({ kind: 'ServiceAddressCollision', object: refOf(service), message: `${address} is held by ${services.length} Services: ${names}` });
    }
  }
  return findings;
};
