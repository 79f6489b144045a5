// The core/v1 Endpoints of a service, computed as Kubernetes' endpoints controller does: one
// address per qualifying pod (ready ones in `addresses`, the rest in `notReadyAddresses`), with
// the pod's port for each service port, repacked so that addresses sharing the same ports share
// a subset (endpoints.RepackSubsets), and truncated to 1000 addresses.
import type { Service } from '../../api/services.js';
import { findPort, hostnameFor, podIPFor, serviceFamilies, shouldPodBeInEndpoints, targetRefOf } from './pods.js';
import { isPodReady } from '../../api/core/pod-conditions.js';
import type { Pod } from '../../api/core/index.js';

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef: { kind: string; namespace: string; name: string; uid: string };
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

/** Endpoints holding more addresses than this are truncated and annotated. */
export const MAX_ENDPOINTS_CAPACITY = 1000;
export const OVER_CAPACITY_ANNOTATION = 'endpoints.kubernetes.io/over-capacity';

interface Entry {
  address: EndpointAddress;
  ready: boolean;
}

function addressKey(address: EndpointAddress): string {
  return `${address.ip}/${address.targetRef.uid}`;
}

function portKey(port: EndpointPort): string {
  return JSON.stringify([port.name ?? '', port.port, port.protocol, port.appProtocol ?? '']);
}

function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  if (a.ip !== b.ip) return a.ip < b.ip ? -1 : 1;
  return a.targetRef.uid < b.targetRef.uid ? -1 : a.targetRef.uid > b.targetRef.uid ? 1 : 0;
}

function comparePorts(a: EndpointPort, b: EndpointPort): number {
  const left = portKey(a);
  const right = portKey(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

function addressOf(pod: Readonly<Pod>, service: Readonly<Service>, ip: string): EndpointAddress {
  const address: EndpointAddress = { ip, targetRef: targetRefOf(pod) };
  const hostname = hostnameFor(pod, service);
  if (hostname) address.hostname = hostname;
  if (pod.spec?.nodeName) address.nodeName = pod.spec.nodeName;
  return address;
}

/** The subsets of the service's Endpoints, sorted so that equal content is equal JSON. */
export function desiredSubsets(service: Readonly<Service>, pods: readonly Readonly<Pod>[]): EndpointSubset[] {
  const publishNotReady = service.spec?.publishNotReadyAddresses === true;
  const family = serviceFamilies(service)[0] ?? 'IPv4';
  const servicePorts = service.spec?.ports ?? [];
  // Each port (a sentinel for port-less headless services) → the addresses that offer it.
  const byPort = new Map<string, { port: EndpointPort | undefined; entries: Map<string, Entry> }>();
  const offer = (port: EndpointPort | undefined, entry: Entry) => {
    const key = port ? portKey(port) : '';
    let group = byPort.get(key);
    if (!group) byPort.set(key, (group = { port, entries: new Map() }));
    group.entries.set(addressKey(entry.address), entry);
  };
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, publishNotReady)) continue;
    const ip = podIPFor(pod, family);
    if (!ip) continue;
    const entry = { address: addressOf(pod, service, ip), ready: publishNotReady || isPodReady(pod) };
    if (servicePorts.length === 0) {
      if (service.spec?.clusterIP === 'None') offer(undefined, entry);
      continue;
    }
    for (const servicePort of servicePorts) {
      const number = findPort(pod, servicePort);
      if (number === undefined) continue;
      const port: EndpointPort = { name: servicePort.name ?? '', port: number, protocol: servicePort.protocol ?? 'TCP' };
      if (servicePort.appProtocol) port.appProtocol = servicePort.appProtocol;
      offer(port, entry);
    }
  }
  return repack(byPort);
}

/** Ports offered by exactly the same addresses (with the same readiness) share one subset. */
function repack(byPort: Map<string, { port: EndpointPort | undefined; entries: Map<string, Entry> }>): EndpointSubset[] {
  const groups = new Map<string, { entries: Entry[]; ports: EndpointPort[] }>();
  for (const { port, entries } of byPort.values()) {
    const sorted = [...entries.values()].sort((a, b) => compareAddresses(a.address, b.address));
    const key = sorted.map((e) => `${addressKey(e.address)}/${e.ready}`).join(',');
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { entries: sorted, ports: [] }));
    if (port) group.ports.push(port);
  }
  const subsets = [...groups.values()].map(({ entries, ports }) => {
    const subset: EndpointSubset = {};
    const ready = entries.filter((e) => e.ready).map((e) => e.address);
    const notReady = entries.filter((e) => !e.ready).map((e) => e.address);
    if (ready.length > 0) subset.addresses = ready;
    if (notReady.length > 0) subset.notReadyAddresses = notReady;
    if (ports.length > 0) subset.ports = ports.sort(comparePorts);
    return subset;
  });
  return subsets.sort((a, b) => {
    const left = JSON.stringify([a.ports ?? [], a.addresses?.[0]?.ip ?? a.notReadyAddresses?.[0]?.ip ?? '']);
    const right = JSON.stringify([b.ports ?? [], b.addresses?.[0]?.ip ?? b.notReadyAddresses?.[0]?.ip ?? '']);
    return left < right ? -1 : left > right ? 1 : 0;
  });
}

/**
 * Cuts the subsets down to MAX_ENDPOINTS_CAPACITY addresses as Kubernetes does: not-ready
 * addresses go first; if the ready ones alone are too many, every subset keeps its share of them.
 * Returns whether anything was cut.
 */
export function truncateSubsets(subsets: EndpointSubset[], capacity = MAX_ENDPOINTS_CAPACITY): boolean {
  let totalReady = 0;
  let totalNotReady = 0;
  for (const subset of subsets) {
    totalReady += subset.addresses?.length ?? 0;
    totalNotReady += subset.notReadyAddresses?.length ?? 0;
  }
  if (totalReady + totalNotReady <= capacity) return false;
  const truncateReady = totalReady > capacity;
  const max = truncateReady ? capacity : capacity - totalReady;
  const total = truncateReady ? totalReady : totalNotReady;
  let room = max;
  for (const subset of subsets) {
    const own = truncateReady ? (subset.addresses?.length ?? 0) : (subset.notReadyAddresses?.length ?? 0);
    const share = Math.min(Math.ceil((own / total) * max), room);
    if (truncateReady) {
      subset.addresses = subset.addresses?.slice(0, share);
      delete subset.notReadyAddresses;
      room -= subset.addresses?.length ?? 0;
    } else {
      subset.notReadyAddresses = subset.notReadyAddresses?.slice(0, share);
      room -= subset.notReadyAddresses?.length ?? 0;
    }
    if (subset.addresses?.length === 0) delete subset.addresses;
    if (subset.notReadyAddresses?.length === 0) delete subset.notReadyAddresses;
  }
  return true;
}
