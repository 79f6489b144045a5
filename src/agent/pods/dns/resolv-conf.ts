// A pod's /etc/resolv.conf as the kubelet forms it from dnsPolicy and dnsConfig
// (pkg/kubelet/network/dns):
//   ClusterFirst (the default): the cluster DNS only, searching `<ns>.svc.<domain> svc.<domain>
//     <domain>` then the host's search domains, `options ndots:5`. A host-network pod under
//     ClusterFirst gets Default instead (ClusterFirstWithHostNet is the way to the cluster DNS
//     from the host's network), and so does every pod when no cluster DNS is known.
//   Default: the host's resolver (nameservers, search, options of its resolv.conf).
//   None: nothing but dnsConfig.
// dnsConfig is merged into each: nameservers and searches appended without repeats, options by
// name (dnsConfig's value wins). Then the resolver's limits: 3 nameservers, 32 search domains
// of at most 253 characters, a search line of 2048 characters; the kubelet trims (and warns),
// so does this.
import { sharesNodeNetwork } from '../../../api/pod-network.js';
import type { Pod } from '../../../api/core/index.js';

export interface DnsSettings {
  /** The cluster DNS's addresses; empty when the cluster has none. */
  clusterDns: readonly string[];
  /** The cluster's DNS domain, e.g. cluster.local (empty: no cluster search domains). */
  clusterDomain: string;
  /** The node's resolv.conf text ('' when it has none). */
  hostResolvConf: string;
}

export interface ResolverConfig {
  nameservers: string[];
  searches: string[];
  /** `name` or `name:value`, as on an options line. */
  options: string[];
}

/** The spec fields read here (PodSpec does not type them). */
interface DnsSpec {
  dnsPolicy?: string;
  dnsConfig?: {
    nameservers?: string[];
    searches?: string[];
    options?: Array<{ name?: string; value?: string }>;
  };
}

export const MAX_NAMESERVERS = 3;
export const MAX_SEARCH_DOMAINS = 32;
export const MAX_SEARCH_LINE_CHARS = 2048;
/** Longer search domains make some libcs abort (glibc 2.28): the kubelet drops them. */
const MAX_SEARCH_DOMAIN_CHARS = 253;
const CLUSTER_FIRST_OPTIONS = ['ndots:5'];

/**
 * A resolv.conf's nameservers, search domains and options, read as the kubelet reads the
 * host's: nameservers accumulate, the last search (or domain) line wins, options merge by name.
 */
export function parseResolvConf(text: string): ResolverConfig {
  const config: ResolverConfig = { nameservers: [], searches: [], options: [] };
  for (const line of text.split('\n')) {
    const [keyword, ...values] = line.trim().split(/\s+/);
    if (!keyword || keyword.startsWith('#') || keyword.startsWith(';')) continue;
    if (keyword === 'nameserver' && values[0]) config.nameservers.push(values[0]);
    // The same domain with and without its trailing dot counts once; the root alone is no search.
    if (keyword === 'search' || keyword === 'domain') config.searches = values.filter((s) => s !== '.').map((s) => s.replace(/\.$/, ''));
    if (keyword === 'options') config.options = mergeOptions(config.options, values.map(splitOption));
  }
  return config;
}

function splitOption(option: string): { name: string; value?: string } {
  const colon = option.indexOf(':');
  return colon < 0 ? { name: option } : { name: option.slice(0, colon), value: option.slice(colon + 1) };
}

/** Options by name, in first-seen order; a later value replaces an earlier one (`ndots:2` over `ndots:5`). */
function mergeOptions(options: readonly string[], more: ReadonlyArray<{ name?: string; value?: string }>): string[] {
  const byName = new Map<string, string>();
  for (const { name, value } of [...options.map(splitOption), ...more]) {
    if (name) byName.set(name, value ? `${name}:${value}` : name);
  }
  return [...byName.values()];
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

type EffectivePolicy = 'cluster' | 'host' | 'none';

function effectivePolicy(pod: Pod, settings: DnsSettings): EffectivePolicy {
  const policy = (pod.spec as DnsSpec).dnsPolicy ?? 'ClusterFirst';
  if (policy === 'None') return 'none';
  if (policy === 'Default') return 'host';
  // ClusterFirst on the host's network means the host's resolver: the pod shares the node's
  // resolver and the node's processes do not use the cluster DNS.
  if (policy === 'ClusterFirst' && sharesNodeNetwork(pod.spec)) return 'host';
  // ClusterFirstWithHostNet, ClusterFirst, or an unknown policy (the kubelet takes it as ClusterFirst).
  return settings.clusterDns.length > 0 ? 'cluster' : 'host';
}

function clusterSearches(pod: Pod, clusterDomain: string): string[] {
  if (!clusterDomain) return [];
  const namespace = pod.metadata.namespace ?? 'default';
  return [`${namespace}.svc.${clusterDomain}`, `svc.${clusterDomain}`, clusterDomain];
}

/** Drops what the resolver cannot take, from the end, as the kubelet does. */
function fitLimits(config: ResolverConfig): ResolverConfig {
  const searches = config.searches.slice(0, MAX_SEARCH_DOMAINS).filter((s) => s.length <= MAX_SEARCH_DOMAIN_CHARS);
  while (searches.join(' ').length > MAX_SEARCH_LINE_CHARS) searches.pop();
  return { nameservers: config.nameservers.slice(0, MAX_NAMESERVERS), searches, options: config.options };
}

/**
 * The resolver configuration of a pod's containers; undefined when the pod takes the host's and
 * the host has no resolv.conf (nor the pod a dnsConfig): the runtime's default then serves
 * better than an empty file, which would point the resolver at the container's own 127.0.0.1.
 */
export function podResolverConfig(pod: Pod, settings: DnsSettings): ResolverConfig | undefined {
  const policy = effectivePolicy(pod, settings);
  const dnsConfig = (pod.spec as DnsSpec).dnsConfig;
  let base: ResolverConfig;
  if (policy === 'none') {
    base = { nameservers: [], searches: [], options: [] };
  } else if (policy === 'host') {
    if (settings.hostResolvConf.trim() === '' && !dnsConfig) return undefined;
    base = parseResolvConf(settings.hostResolvConf);
  } else {
    const host = parseResolvConf(settings.hostResolvConf);
    base = {
      // The cluster DNS alone: it forwards what it does not know to the node's resolvers.
      nameservers: [...settings.clusterDns],
      searches: unique([...clusterSearches(pod, settings.clusterDomain), ...host.searches]),
      options: [...CLUSTER_FIRST_OPTIONS],
    };
  }
  const merged: ResolverConfig = {
    nameservers: unique([...base.nameservers, ...(dnsConfig?.nameservers ?? [])]),
    searches: unique([...base.searches, ...(dnsConfig?.searches ?? [])]),
    options: mergeOptions(base.options, dnsConfig?.options ?? []),
  };
  return fitLimits(merged);
}

/** The file: `nameserver` lines, one `search` line, one `options` line (each only when there is something to say). */
export function formatResolvConf(config: ResolverConfig): string {
  const lines = config.nameservers.map((ns) => `nameserver ${ns}`);
  if (config.searches.length > 0) lines.push(`search ${config.searches.join(' ')}`);
  if (config.options.length > 0) lines.push(`options ${config.options.join(' ')}`);
  return lines.map((line) => `${line}\n`).join('');
}

/** The /etc/resolv.conf content of a pod's containers; undefined: leave the runtime's default (see podResolverConfig). */
export function podResolvConf(pod: Pod, settings: DnsSettings): string | undefined {
  const config = podResolverConfig(pod, settings);
  return config && formatResolvConf(config);
}
