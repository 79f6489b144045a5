// The cluster's address plan, as k3s names it: the pod CIDR (each node gets a /24 of it, its
// spec.podCIDR), the service CIDR (cluster IPs; its first address is the `kubernetes` Service's,
// its tenth the cluster DNS's), and the DNS domain. The server allocates from it, the agents
// program their pod network, service rules and DNS from it; `drover up` hands one plan to both.
// IPv4 only, as the rest of Drover's networking.

export interface ClusterNetwork {
  /** Pod addresses, e.g. 10.42.0.0/16; each node's pods get one NODE_PREFIX-long slice of it. */
  podCidr: string;
  /** Service cluster IPs, e.g. 10.43.0.0/16. */
  serviceCidr: string;
  /** The cluster DNS's service address (default: the service CIDR's tenth address). */
  clusterDns: string;
  /** The DNS domain of Services and pods (cluster.local). */
  clusterDomain: string;
}

export const DEFAULT_POD_CIDR = '10.42.0.0/16';
export const DEFAULT_SERVICE_CIDR = '10.43.0.0/16';
export const DEFAULT_CLUSTER_DOMAIN = 'cluster.local';
/** The prefix of a node's pod CIDR, as Kubernetes' node IPAM hands out by default. */
export const NODE_PREFIX = 24;

export interface Cidr {
  /** The network address as an unsigned 32-bit number. */
  base: number;
  prefix: number;
  /** How many addresses it holds. */
  size: number;
}

export function ipToNumber(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

export function numberToIp(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/** Parses `a.b.c.d/p`; undefined when malformed or when host bits are set. */
export function parseCidr(text: string): Cidr | undefined {
  const [ip, prefixText, extra] = text.split('/');
  if (extra !== undefined || ip === undefined || prefixText === undefined || !/^\d{1,2}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  const base = ipToNumber(ip);
  if (base === undefined || prefix > 32) return undefined;
  const size = 2 ** (32 - prefix);
  if (base % size !== 0) return undefined;
  return { base, prefix, size };
}

export function formatCidr(cidr: Cidr): string {
  return `${numberToIp(cidr.base)}/${cidr.prefix}`;
}

export function cidrContains(cidr: Cidr, ip: string): boolean {
  const value = ipToNumber(ip);
  return value !== undefined && value >= cidr.base && value < cidr.base + cidr.size;
}

/** The address `index` places into the range (0 is the network address). */
export function addressAt(cidr: Cidr, index: number): string {
  return numberToIp(cidr.base + index);
}

function mustParse(flag: string, text: string, maxPrefix: number): Cidr {
  const cidr = parseCidr(text);
  if (!cidr) throw new Error(`${flag} ${JSON.stringify(text)} is not an IPv4 CIDR such as 10.42.0.0/16 (host bits must be zero)`);
  if (cidr.prefix > maxPrefix) throw new Error(`${flag} ${text} is too small: a prefix of /${maxPrefix} or shorter is needed`);
  return cidr;
}

/**
 * A checked plan from what the user gave; the rest from the defaults. Throws a message naming the
 * flag at fault: malformed ranges, overlapping pod and service ranges, a DNS address outside the
 * service range.
 */
export function clusterNetwork(given: Partial<ClusterNetwork> = {}): ClusterNetwork {
  const podCidr = given.podCidr ?? DEFAULT_POD_CIDR;
  const serviceCidr = given.serviceCidr ?? DEFAULT_SERVICE_CIDR;
  const pods = mustParse('--cluster-cidr', podCidr, NODE_PREFIX);
  // Twelve addresses at least: the system's first ten and one for a Service.
  const services = mustParse('--service-cidr', serviceCidr, 28);
  if (pods.base < services.base + services.size && services.base < pods.base + pods.size) {
    throw new Error(`--cluster-cidr ${podCidr} and --service-cidr ${serviceCidr} overlap`);
  }
  const clusterDns = given.clusterDns ?? addressAt(services, 10);
  if (!cidrContains(services, clusterDns)) throw new Error(`--cluster-dns ${clusterDns} is not inside --service-cidr ${serviceCidr}`);
  const clusterDomain = (given.clusterDomain ?? DEFAULT_CLUSTER_DOMAIN).replace(/\.$/, '');
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(clusterDomain)) {
    throw new Error(`--cluster-domain ${JSON.stringify(clusterDomain)} is not a DNS name`);
  }
  return { podCidr: formatCidr(pods), serviceCidr: formatCidr(services), clusterDns, clusterDomain };
}

/** The `kubernetes` Service's address: the service range's first. */
export function kubernetesServiceIP(network: Pick<ClusterNetwork, 'serviceCidr'>): string {
  return addressAt(parseCidr(network.serviceCidr)!, 1);
}
