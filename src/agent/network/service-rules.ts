// The node's service rules, as kube-proxy's iptables mode writes them: pure, from the Services
// and EndpointSlices to the text `iptables-restore --noflush` takes for the nat table. Every
// chain is this agent's own (DRV-<key>-…), declared and so flushed on each write; the jumps into
// them from the built-in chains are kept by host-rules.ts.
//
//   DRV-<k>-SVC   per service port: `-d clusterIP --dport port` (and the node's address at the
//                 nodePort) → the port's chain; the cluster DNS address → this node's DNS
//   DRV-<k>-S…    one per service port: a DNAT to one of its endpoints, spread at random, or by
//                 client address with sessionAffinity: ClientIP (the `recent` match, as
//                 kube-proxy does); traffic from one of the endpoints themselves is marked for
//                 masquerade first (it may be sent to itself: see portChain)
//   DRV-<k>-POST  masquerade what needs it: the marked traffic, and traffic from the node's
//                 loopback addresses (NodePorts on 127.0.0.1)
//
// No chain per endpoint, unlike kube-proxy: iptables-restore's time grows with the number of
// chains far more than with the number of rules (11,000 chains for 1,000 Services × 10
// endpoints took seconds; 1,000 chains with as many rules, a tenth of that).
import { createHash } from 'node:crypto';
import type { EndpointSlice, Service, ServicePort, SliceEndpoint } from '../../api/services.js';
import { isHeadless } from '../../api/services.js';

/** The mark bit of packets to masquerade on the way out (kube-proxy uses 0x4000; ours is apart). */
export const MASQUERADE_MARK = '0x8000';
const DEFAULT_AFFINITY_SECONDS = 10_800;

export interface ServiceEntry {
  service: Readonly<Service>;
  slices: readonly Readonly<EndpointSlice>[];
}

export interface RuleInput {
  /** The agent's chains are DRV-<key>-…: 8 hex digits of its cluster and node. */
  key: string;
  nodeName: string;
  /** The node's InternalIP: NodePorts answer there. */
  nodeAddress: string;
  /** The pod network's bridge: traffic from the node's loopback addresses leaving on it is masqueraded. */
  bridge: string;
  /** The service range: a packet to it that no rule took leaves the nat table here (see buildRules). */
  serviceCidr: string;
  /** The cluster DNS's service address and where this node's DNS listens (ip:port). */
  dns?: { serviceIP: string; listen: string } | undefined;
  services: readonly ServiceEntry[];
}

export interface RuleSet {
  /** Every chain of the set with its rules (`-A <chain> …` lines), in the order they are written. */
  chains: Map<string, string[]>;
  /** Cluster IPs with at least one rule: the node routes them to the pod network (see host-rules.ts). */
  routedIPs: string[];
}

export function chainPrefix(key: string): string {
  return `DRV-${key}-`;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').replace(/[-_]/g, 'x').slice(0, 12).toUpperCase();
}

interface Endpoint {
  ip: string;
  port: number;
  nodeName: string | undefined;
}

/** The ready endpoints of a service port; when none is ready, the serving terminating ones (as kube-proxy falls back). */
function endpointsFor(entry: ServiceEntry, port: ServicePort): Endpoint[] {
  const ready: Endpoint[] = [];
  const terminating: Endpoint[] = [];
  const protocol = port.protocol ?? 'TCP';
  for (const slice of entry.slices) {
    if (slice.addressType !== 'IPv4') continue;
    const slicePort = (slice.ports ?? []).find((p) => (p.name ?? '') === (port.name ?? '') && (p.protocol ?? 'TCP') === protocol);
    if (!slicePort?.port) continue;
    for (const endpoint of slice.endpoints ?? []) {
      const target = pick(endpoint, slicePort.port);
      if (!target) continue;
      if (endpoint.conditions.ready) ready.push(target);
      else if (endpoint.conditions.serving && endpoint.conditions.terminating) terminating.push(target);
    }
  }
  const chosen = ready.length > 0 ? ready : terminating;
  // Sorted, so the same endpoints give the same rules whatever order the slices list them in.
  return chosen.sort((a, b) => (a.ip === b.ip ? a.port - b.port : a.ip < b.ip ? -1 : 1));
}

function pick(endpoint: SliceEndpoint, port: number): Endpoint | undefined {
  const ip = endpoint.addresses[0];
  return ip ? { ip, port, nodeName: endpoint.nodeName } : undefined;
}

function serviceIPs(service: Readonly<Service>): string[] {
  const ips = service.spec?.clusterIPs?.length ? service.spec.clusterIPs : [service.spec?.clusterIP ?? ''];
  return ips.filter((ip) => ip !== '' && ip !== 'None' && !ip.includes(':'));
}

function hasNodePorts(service: Readonly<Service>): boolean {
  return service.spec?.type === 'NodePort' || service.spec?.type === 'LoadBalancer';
}

const quote = (text: string): string => `"${text.replace(/["\\]/g, '')}"`;

class Writer {
  readonly chains = new Map<string, string[]>();

  chain(name: string): string {
    this.chains.set(name, []);
    return name;
  }

  rule(chain: string, spec: string): void {
    this.chains.get(chain)!.push(`-A ${chain} ${spec}`);
  }
}

/** The whole rule set of this node. */
export function buildRules(input: RuleInput): RuleSet {
  const prefix = chainPrefix(input.key);
  const out = new Writer();
  const services = out.chain(`${prefix}SVC`);
  const post = out.chain(`${prefix}POST`);
  // A reply to 127.0.0.1 could never leave the pod; the pod answers the bridge's address instead.
  out.rule(post, `-s 127.0.0.0/8 -o ${input.bridge} -j MASQUERADE`);
  out.rule(post, `-m mark ! --mark ${MASQUERADE_MARK}/${MASQUERADE_MARK} -j RETURN`);
  out.rule(post, `-j MARK --xor-mark ${MASQUERADE_MARK}`);
  out.rule(post, '-j MASQUERADE');
  const routed = new Set<string>();
  if (input.dns) {
    for (const protocol of ['udp', 'tcp']) {
      out.rule(
        services,
        `-d ${input.dns.serviceIP}/32 -p ${protocol} -m ${protocol} --dport 53 -m comment --comment ${quote('cluster DNS')} -j DNAT --to-destination ${input.dns.listen}`,
      );
    }
    routed.add(input.dns.serviceIP);
  }
  const sorted = [...input.services].sort((a, b) => serviceName(a.service).localeCompare(serviceName(b.service)));
  for (const entry of sorted) writeService(out, input, entry, routed);
  // No further nat for a service address no rule took (no endpoints, none on this node under a
  // Local policy): another agent's rules on this machine must not take it either. It meets the
  // range's unreachable route and fails at once.
  out.rule(services, `-d ${input.serviceCidr} -j ACCEPT`);
  return { chains: out.chains, routedIPs: [...routed].sort() };
}

function serviceName(service: Readonly<Service>): string {
  return `${service.metadata.namespace}/${service.metadata.name}`;
}

function writeService(out: Writer, input: RuleInput, entry: ServiceEntry, routed: Set<string>): void {
  const { service } = entry;
  if (isHeadless(service) || service.spec?.type === 'ExternalName') return;
  const ips = serviceIPs(service);
  if (ips.length === 0) return;
  const name = serviceName(service);
  for (const port of service.spec?.ports ?? []) {
    if (!port.port) continue;
    const protocol = (port.protocol ?? 'TCP').toLowerCase();
    if (protocol !== 'tcp' && protocol !== 'udp') continue; // SCTP: not programmed
    const label = `${name}:${port.name ?? port.port}`;
    const all = endpointsFor(entry, port);
    const local = all.filter((e) => e.nodeName === input.nodeName);
    const internal = service.spec?.internalTrafficPolicy === 'Local' ? local : all;
    const external = service.spec?.externalTrafficPolicy === 'Local' ? local : all;
    const match = `-p ${protocol} -m ${protocol}`;
    // Without endpoints there is no rule: the packet meets the service range's unreachable route and fails at once.
    const internalChain = portChain(out, input, entry, label, port, 'I', internal);
    if (internalChain) {
      for (const ip of ips) {
        out.rule(`${chainPrefix(input.key)}SVC`, `-d ${ip}/32 ${match} --dport ${port.port} -m comment --comment ${quote(label)} -j ${internalChain}`);
        routed.add(ip);
      }
    }
    if (port.nodePort && hasNodePorts(service)) {
      const externalChain = external === internal ? internalChain : portChain(out, input, entry, label, port, 'X', external);
      if (externalChain) {
        out.rule(
          `${chainPrefix(input.key)}SVC`,
          `-d ${input.nodeAddress}/32 ${match} --dport ${port.nodePort} -m comment --comment ${quote(`${label} nodePort`)} -j ${externalChain}`,
        );
      }
    }
  }
}

/**
 * The chain spreading one service port's traffic over its endpoints; undefined when there are
 * none. An endpoint may be chosen for its own traffic, and a pod's reply to itself never passes
 * the node's conntrack to be translated back, so such traffic is masqueraded. Without a chain
 * per endpoint the rules cannot tell which endpoint will be chosen: traffic from any endpoint
 * of the port is marked (its own Service's calls lose their source address; kube-proxy keeps it
 * at the cost of a chain per endpoint).
 */
function portChain(
  out: Writer,
  input: RuleInput,
  entry: ServiceEntry,
  label: string,
  port: ServicePort,
  kind: string,
  endpoints: Endpoint[],
): string | undefined {
  if (endpoints.length === 0) return undefined;
  const prefix = chainPrefix(input.key);
  const chain = out.chain(`${prefix}S${kind}${digest(label)}`);
  const protocol = (port.protocol ?? 'TCP').toLowerCase();
  const affinity = entry.service.spec?.sessionAffinity === 'ClientIP';
  const seconds = entry.service.spec?.sessionAffinityConfig?.clientIP?.timeoutSeconds ?? DEFAULT_AFFINITY_SECONDS;
  const memory = (endpoint: Endpoint) => `${prefix}A${digest(`${label}/${kind}/${endpoint.ip}:${endpoint.port}`)}`;
  const dnat = (endpoint: Endpoint) => `-j DNAT --to-destination ${endpoint.ip}:${endpoint.port}`;
  for (const endpoint of endpoints) out.rule(chain, `-s ${endpoint.ip}/32 -j MARK --or-mark ${MASQUERADE_MARK}`);
  // A client seen lately goes back to the endpoint it had.
  if (affinity)
    for (const endpoint of endpoints)
      out.rule(chain, `-p ${protocol} -m ${protocol} -m recent --name ${memory(endpoint)} --rcheck --seconds ${seconds} --reap ${dnat(endpoint)}`);
  endpoints.forEach((endpoint, i) => {
    const left = endpoints.length - i;
    const spread = left > 1 ? `-m statistic --mode random --probability ${(1 / left).toFixed(10)} ` : '';
    // After the statistic match: only the chosen endpoint remembers the client.
    const remember = affinity ? `-m recent --name ${memory(endpoint)} --set ` : '';
    out.rule(chain, `-p ${protocol} -m ${protocol} ${spread}${remember}${dnat(endpoint)}`);
  });
  return chain;
}
