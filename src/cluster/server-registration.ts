// Each API server publishes itself, as kube-apiserver's lease endpoint reconciler does under
// /registry/masterleases/: a Lease per server in kube-system (drover-apiserver-HOST-PORT, its
// holder the server's address), renewed every second (every 10 s for a server alone on its
// SQLite store), and the `default/kubernetes` Service's Endpoints rebuilt by every server from
// the Leases still live. A dead server drops out once its Lease lapses (5 s), so clients that read
// those Endpoints — pods reaching the API through the Service — only ever find servers that answer.
// Every server writes the same Endpoints from the same Leases; a conflict means another server
// just did, and the next round checks again.
import { hostname } from 'node:os';
import { kubernetesServiceIP, type ClusterNetwork } from '../api/cluster-network.js';
import type { KubeObject } from '../api/meta.js';
import { jsonEqual } from '../util/json-equal.js';
import { SERVICE_NAME_LABEL, type EndpointSlice } from '../api/services.js';
import { isAlreadyExists, isConflict, isNotFound, LeaseLock, leaseIsLive, resources, type ApiClient, type Lease } from '../client/index.js';

const NAMESPACE = 'kube-system';
const LEASE_PREFIX = 'drover-apiserver-';
const SLICE_MANAGER_LABEL = 'endpointslice.kubernetes.io/managed-by';
const SLICE_MANAGER = 'drover-apiserver';

export interface ServerRegistrationOptions {
  api: ApiClient;
  /** Where clients reach this server: 127.0.0.1 and its port. */
  address: { ip: string; port: number };
  /** The cluster's address plan: the `kubernetes` and `kube-dns` Services' cluster IPs. */
  network: ClusterNetwork;
  leaseDurationSeconds?: number;
  renewIntervalMs?: number;
}

export interface ServerRegistration {
  /** One round: renew this server's Lease, then bring the Endpoints up to date. */
  reconcile(): Promise<void>;
  /** Drops this server's Lease and takes it out of the Endpoints (a graceful shutdown). */
  stop(): Promise<void>;
}

export function serverLeaseName(port: number): string {
  const host =
    hostname()
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'host';
  return `${LEASE_PREFIX}${host}-${port}`;
}

export async function startServerRegistration(options: ServerRegistrationOptions): Promise<ServerRegistration> {
  const { api, address } = options;
  const leaseSeconds = options.leaseDurationSeconds ?? 5;
  const lock = new LeaseLock(api);
  const name = serverLeaseName(address.port);
  const identity = `${address.ip}:${address.port}`;
  let stopped = false;
  const reconcile = async () => {
    if (stopped) return;
    await lock.tryAcquireOrRenew(name, NAMESPACE, identity, leaseSeconds);
    await ensureKubernetesService(api, address.port, options.network);
    await ensureDnsService(api, options.network);
    const servers = await liveServers(api);
    await writeEndpoints(api, servers);
    await writeEndpointSlices(api, servers);
  };
  // Failing every second while etcd is down says nothing new after the first time.
  let lastError = '';
  const round = () =>
    reconcile().then(
      () => void (lastError = ''),
      (error: unknown) => {
        const message = (error as Error).message;
        if (message !== lastError) console.error(`server registration: ${message}`);
        lastError = message;
      },
    );
  await round();
  const timer = setInterval(() => void round(), options.renewIntervalMs ?? 1000);
  timer.unref();
  return {
    reconcile,
    async stop() {
      stopped = true;
      clearInterval(timer);
      try {
        await api.resource<Lease>(resources.leases, NAMESPACE).delete(name);
        const others = (await liveServers(api)).filter((server) => server !== identity);
        await writeEndpoints(api, others);
        await writeEndpointSlices(api, others);
      } catch (error) {
        if (!isNotFound(error) && !isConflict(error)) console.error(`server registration: ${(error as Error).message}`);
      }
    },
  };
}

/** `ip:port` of every server whose Lease is live, sorted. */
async function liveServers(api: ApiClient): Promise<string[]> {
  const leases = await api.resource<Lease>(resources.leases, NAMESPACE).list();
  const now = Date.now();
  const live = leases.items.filter((lease) => lease.metadata.name?.startsWith(LEASE_PREFIX) && leaseIsLive(lease, now, 0));
  return [...new Set(live.map((lease) => lease.spec!.holderIdentity!))].sort();
}

/** The `kubernetes` Service every cluster has: ClusterIP, port 443 to the servers' port. */
async function ensureKubernetesService(api: ApiClient, port: number, network: ClusterNetwork): Promise<void> {
  await ensureService(api, {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: { type: 'ClusterIP', clusterIP: kubernetesServiceIP(network), ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: port }] },
  });
}

/**
 * `kube-system/kube-dns` at the cluster DNS address, as clusters with CoreDNS have it: pods'
 * resolv.conf names that address and tools look the Service up. No selector: every agent
 * answers DNS for its own pods on that address, so there are no endpoints to pick.
 */
async function ensureDnsService(api: ApiClient, network: ClusterNetwork): Promise<void> {
  await ensureService(api, {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kube-dns', namespace: NAMESPACE, labels: { 'k8s-app': 'kube-dns', 'kubernetes.io/cluster-service': 'true' } },
    spec: {
      type: 'ClusterIP',
      clusterIP: network.clusterDns,
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
        { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
      ],
    },
  });
}

/** Creates the Service once; one that exists (made earlier, or edited by an admin) is left alone. */
async function ensureService(api: ApiClient, service: KubeObject): Promise<void> {
  const services = api.resource(resources.services, service.metadata.namespace);
  try {
    await services.get(service.metadata.name ?? '');
    return;
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  await services.create(service).catch((error: unknown) => {
    if (!isAlreadyExists(error)) throw error;
  });
}

/** One subset per server port (servers on one machine differ by port; across machines, by IP). */
function subsetsFor(servers: string[]): unknown[] {
  const byPort = new Map<number, string[]>();
  for (const server of servers) {
    const at = server.lastIndexOf(':');
    const port = Number(server.slice(at + 1));
    byPort.set(port, [...(byPort.get(port) ?? []), server.slice(0, at)]);
  }
  return [...byPort.entries()]
    .sort(([a], [b]) => a - b)
    .map(([port, ips]) => ({
      addresses: ips.map((ip) => ({ ip })),
      ports: [{ name: 'https', port, protocol: 'TCP' }],
    }));
}

async function writeEndpoints(api: ApiClient, servers: string[]): Promise<void> {
  const endpoints = api.resource(resources.endpoints, 'default');
  const subsets = subsetsFor(servers);
  let current: KubeObject | undefined;
  try {
    current = await endpoints.get('kubernetes');
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  if (current && serversIn(current).join(' ') === servers.join(' ')) return;
  try {
    if (current) await endpoints.update({ ...current, subsets });
    else await endpoints.create({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'kubernetes', namespace: 'default' }, subsets });
  } catch (error) {
    // Another server wrote them first; the next round compares again.
    if (!isConflict(error) && !isAlreadyExists(error)) throw error;
  }
}

/**
 * The same servers as EndpointSlices, which the agents' service rules read (kube-apiserver writes
 * both): one slice per port, `kubernetes` for the first, `kubernetes-<port>` for more.
 */
async function writeEndpointSlices(api: ApiClient, servers: string[]): Promise<void> {
  const slices = api.resource<EndpointSlice>(resources.endpointslices, 'default');
  const wanted = new Map<string, EndpointSlice>();
  (subsetsFor(servers) as Array<{ addresses: Array<{ ip: string }>; ports: Array<{ name: string; port: number; protocol: string }> }>).forEach((subset, i) => {
    const name = i === 0 ? 'kubernetes' : `kubernetes-${subset.ports[0]!.port}`;
    wanted.set(name, {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name, namespace: 'default', labels: { [SERVICE_NAME_LABEL]: 'kubernetes', [SLICE_MANAGER_LABEL]: SLICE_MANAGER } },
      addressType: 'IPv4',
      endpoints: subset.addresses.map((a) => ({
        addresses: [a.ip],
        conditions: { ready: true, serving: true, terminating: false },
      })) as EndpointSlice['endpoints'],
      ports: subset.ports,
    });
  });
  const existing = (await slices.list({ labelSelector: `${SERVICE_NAME_LABEL}=kubernetes,${SLICE_MANAGER_LABEL}=${SLICE_MANAGER}` })).items;
  try {
    for (const slice of existing) {
      const want = wanted.get(slice.metadata.name ?? '');
      if (!want) await slices.delete(slice.metadata.name ?? '');
      else if (!jsonEqual([slice.endpoints, slice.ports], [want.endpoints, want.ports])) {
        await slices.update({ ...slice, endpoints: want.endpoints ?? [], ports: want.ports ?? [] });
      }
      wanted.delete(slice.metadata.name ?? '');
    }
    for (const slice of wanted.values()) await slices.create(slice);
  } catch (error) {
    // Another server wrote them first; the next round compares again.
    if (!isConflict(error) && !isAlreadyExists(error) && !isNotFound(error)) throw error;
  }
}

/** `ip:port` of every address in stored Endpoints, sorted as liveServers() sorts. */
function serversIn(endpoints: KubeObject): string[] {
  const subsets = Array.isArray(endpoints['subsets'])
    ? (endpoints['subsets'] as Array<{ addresses?: Array<{ ip?: string }>; ports?: Array<{ port?: number }> }>)
    : [];
  const servers = subsets.flatMap((subset) => (subset.addresses ?? []).flatMap((a) => (subset.ports ?? []).map((p) => `${a.ip}:${p.port}`)));
  return [...new Set(servers)].sort();
}
