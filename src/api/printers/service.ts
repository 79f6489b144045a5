// `kubectl get services` and `kubectl get endpoints`.
import type { KubeObject } from '../meta.js';
import type { TablePrinter } from '../resource.js';
import { AGE_COLUMN, NAME_COLUMN, column, wide } from './columns.js';
import { age, formatLabels, joinHostPort } from './format.js';
import { listAt, numberAt, stringAt, stringMapAt } from './read.js';

const MAX_ENDPOINTS = 3;

// The API server renders tables as for `-o wide`, so load-balancer addresses are never clipped.
function loadBalancerAddresses(service: KubeObject): string[] {
  const found = new Set<string>();
  for (const ingress of listAt(service, 'status', 'loadBalancer', 'ingress')) {
    const address = stringAt(ingress, 'ip') || stringAt(ingress, 'hostname');
    if (address !== '') found.add(address);
  }
  return [...found].sort();
}

export function externalIP(service: KubeObject): string {
  const externalIPs = listAt(service, 'spec', 'externalIPs').filter((ip): ip is string => typeof ip === 'string');
  switch (stringAt(service, 'spec', 'type')) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const all = [...loadBalancerAddresses(service), ...externalIPs];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return stringAt(service, 'spec', 'externalName');
    default:
      return '<unknown>';
  }
}

/** `80/TCP,443:30443/TCP`, or `<none>`. */
export function portsCell(service: KubeObject): string {
  const ports = listAt(service, 'spec', 'ports').map((port) => {
    const protocol = stringAt(port, 'protocol') || 'TCP';
    const nodePort = numberAt(port, 'nodePort');
    const number = numberAt(port, 'port');
    return nodePort > 0 ? `${number}:${nodePort}/${protocol}` : `${number}/${protocol}`;
  });
  return ports.length > 0 ? ports.join(',') : '<none>';
}

// A v1 Service may carry only the legacy clusterIP; Kubernetes' conversion fills clusterIPs from it.
function clusterIP(service: KubeObject): string {
  const ips = listAt(service, 'spec', 'clusterIPs');
  const first = ips.length > 0 ? ips[0] : stringAt(service, 'spec', 'clusterIP');
  return typeof first === 'string' && first !== '' ? first : '<none>';
}

export const servicePrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Type', 'string', 'type determines how the Service is exposed.'),
    column('Cluster-IP', 'string', 'clusterIP is the IP address of the service, usually assigned by the control plane.'),
    column('External-IP', 'string', 'externalIPs and load-balancer ingress addresses of the service.'),
    column('Port(s)', 'string', 'The list of ports that are exposed by this service.'),
    AGE_COLUMN,
    wide('Selector', 'string', 'Route service traffic to pods with label keys and values matching this selector.'),
  ],
  row(service, now) {
    return [
      service.metadata.name ?? '',
      stringAt(service, 'spec', 'type'),
      clusterIP(service),
      externalIP(service),
      portsCell(service),
      age(service, now),
      formatLabels(stringMapAt(service, 'spec', 'selector')),
    ];
  },
};

/**
 * The first three ready addresses as `ip:port` (bare IPs for port-less headless services), then
 * ` + N more...`; `<none>` when there are no subsets.
 */
export function formatEndpoints(endpoints: KubeObject): string {
  const subsets = listAt(endpoints, 'subsets');
  if (subsets.length === 0) return '<none>';
  const shown: string[] = [];
  let total = 0;
  for (const subset of subsets) {
    const ips = listAt(subset, 'addresses').map((address) => stringAt(address, 'ip'));
    const ports = listAt(subset, 'ports');
    const entries = ports.length === 0 ? [ips] : ports.map((port) => ips.map((ip) => joinHostPort(ip, numberAt(port, 'port'))));
    for (const group of entries) {
      total += group.length;
      shown.push(...group.slice(0, Math.max(0, MAX_ENDPOINTS - shown.length)));
    }
  }
  const text = shown.join(',');
  return total > MAX_ENDPOINTS ? `${text} + ${total - MAX_ENDPOINTS} more...` : text;
}

export const endpointsPrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Endpoints', 'string', 'The set of ready addresses and ports of the service.'), AGE_COLUMN],
  row: (endpoints, now) => [endpoints.metadata.name ?? '', formatEndpoints(endpoints), age(endpoints, now)],
};
