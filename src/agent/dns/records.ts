// The cluster's DNS records, computed per question from the Services and EndpointSlices the
// agent already watches, after https://github.com/kubernetes/dns/blob/master/docs/specification.md
// and CoreDNS's kubernetes plugin (TTL 5 s, SRV priority 0 weight 100, `pods insecure`).
// Every lookup is by key (namespace, name): nothing here walks all Services.
import { isIPv4 } from 'node:net';
import type { Answer, Question, SrvAnswer, StringAnswer } from 'dns-packet';
import type { EndpointSlice, Service } from '../../api/services.js';
import { isHeadless } from '../../api/services.js';
import { publishedEndpoints, type PublishedEndpoint } from './endpoints.js';
import { addressFromDashes, isWellFormedName, relativeTo, trimDot } from './names.js';

/** What the DNS server reads; the agent's ServiceDirectory is one. */
export interface DnsView {
  get(namespace: string, name: string): Readonly<Service> | undefined;
  slicesOf(namespace: string, name: string): readonly Readonly<EndpointSlice>[];
}

export type Rcode = 'NOERROR' | 'FORMERR' | 'SERVFAIL' | 'NXDOMAIN' | 'NOTIMP' | 'REFUSED';

export interface DnsAnswer {
  rcode: Rcode;
  /** Whether the server speaks for the name (every name under the cluster domain). */
  authoritative: boolean;
  answers: Answer[];
  authority: Answer[];
  additionals: Answer[];
}

/** CoreDNS's kubernetes plugin default: records change as fast as pods do. */
export const RECORD_TTL = 5;
/** SRV weight CoreDNS gives every target, each target being equally preferred. */
const SRV_WEIGHT = 100;
/** Picked once per process: the zone has no versions, but a serial must not go backwards on restart. */
const SOA_SERIAL = Math.floor(Date.now() / 1000) >>> 0;

/**
 * The answer to one question about the cluster domain `domain` (e.g. `cluster.local`).
 * Names outside the domain are REFUSED: this server answers for the cluster only and forwards nothing.
 */
export function answer(question: Question, view: DnsView, domain: string): DnsAnswer {
  const zone = trimDot(domain).toLowerCase();
  if (!isWellFormedName(question.name)) return reply('FORMERR', false);
  if (question.class !== undefined && question.class !== 'IN' && question.class !== 'ANY') return reply('REFUSED', false);
  const name = relativeTo(question.name, zone);
  if (!name) return reply('REFUSED', false);
  const records = new Records(question, view, zone, name.asked, name.lower);
  return records.lookup();
}

function reply(rcode: Rcode, authoritative: boolean, answers: Answer[] = [], authority: Answer[] = [], additionals: Answer[] = []): DnsAnswer {
  return { rcode, authoritative, answers, authority, additionals };
}

/** One question's lookup; `asked` and `lower` are the labels left of the domain, right-most last. */
class Records {
  /** dns-packet names types it knows ('ANY' among them) beyond its declared union. */
  private readonly type: string;

  constructor(
    private readonly question: Question,
    private readonly view: DnsView,
    private readonly zone: string,
    private readonly asked: readonly string[],
    private readonly lower: readonly string[],
  ) {
    this.type = question.type;
  }

  lookup(): DnsAnswer {
    const labels = this.lower;
    const kind = labels[labels.length - 1];
    if (labels.length === 0) return this.apex();
    if (kind === 'svc') return this.underSvc();
    if (kind === 'pod') return this.underPod();
    return this.nxdomain();
  }

  /** The domain itself holds only its SOA. */
  private apex(): DnsAnswer {
    if (this.type === 'SOA' || this.type === 'ANY') return reply('NOERROR', true, [this.soa(this.question.name)]);
    return this.nodata();
  }

  private underSvc(): DnsAnswer {
    const labels = this.lower;
    // `svc.<domain>` and `<ns>.svc.<domain>` have names below them; RFC 8020 resolvers would
    // read NXDOMAIN there as "nothing below", so they answer NODATA. The view cannot list
    // namespaces, so every namespace is taken to exist.
    if (labels.length <= 2) return this.nodata();
    const namespace = labels[labels.length - 2]!;
    const serviceName = labels[labels.length - 3]!;
    const service = this.view.get(namespace, serviceName);
    if (!service) return this.nxdomain();
    const serviceFqdn = `${this.asked.slice(-3).join('.')}.${this.zone}`;
    if (labels.length === 3) return this.service(service, namespace, serviceName);
    if (labels.length === 4) {
      // `_tcp.<svc>...` only exists as the parent of a port's SRV name.
      if (labels[0]!.startsWith('_')) return this.hasPortsOf(service, namespace, serviceName, labels[0]!.slice(1)) ? this.nodata() : this.nxdomain();
      return this.endpointByLabel(service, namespace, serviceName, labels[0]!);
    }
    if (labels.length === 5 && labels[0]!.startsWith('_') && labels[1]!.startsWith('_')) {
      return this.srv(service, namespace, serviceName, serviceFqdn, labels[0]!.slice(1), labels[1]!.slice(1));
    }
    return this.nxdomain();
  }

  /** `<svc>.<ns>.svc.<domain>`. */
  private service(service: Readonly<Service>, namespace: string, serviceName: string): DnsAnswer {
    const name = this.question.name;
    if (service.spec?.type === 'ExternalName') return this.externalName(service);
    if (!this.wantsAddress()) return this.nodata();
    const addresses = isHeadless(service)
      ? publishedEndpoints(service, this.view.slicesOf(namespace, serviceName)).map((e) => e.address)
      : clusterIPv4s(service);
    // A headless Service without ready endpoints still exists: NOERROR and no records.
    if (addresses.length === 0) return this.nodata();
    return reply(
      'NOERROR',
      true,
      uniqueAddresses(addresses).map((address) => aRecord(name, address)),
    );
  }

  private externalName(service: Readonly<Service>): DnsAnswer {
    const target = trimDot(service.spec?.externalName ?? '');
    if (target === '' || !isWellFormedName(target)) return this.nodata();
    // A CNAME stands for the name whatever type was asked; the client follows it itself, since
    // this server resolves nothing outside the cluster.
    return reply('NOERROR', true, [{ type: 'CNAME', name: this.question.name, ttl: RECORD_TTL, data: target }]);
  }

  /** `<hostname>.<svc>.<ns>.svc.<domain>` or `<a-b-c-d>.<svc>.<ns>.svc.<domain>`, headless only. */
  private endpointByLabel(service: Readonly<Service>, namespace: string, serviceName: string, label: string): DnsAnswer {
    if (!isHeadless(service)) return this.nxdomain();
    const endpoints = publishedEndpoints(service, this.view.slicesOf(namespace, serviceName));
    const dashed = addressFromDashes(label);
    const matching = endpoints.filter((e) => e.label === label || (dashed !== undefined && e.address === dashed));
    if (matching.length === 0) return this.nxdomain();
    if (!this.wantsAddress()) return this.nodata();
    return reply(
      'NOERROR',
      true,
      matching.map((e) => aRecord(this.question.name, e.address)),
    );
  }

  /** `_<port>._<proto>.<svc>.<ns>.svc.<domain>`. */
  private srv(service: Readonly<Service>, namespace: string, serviceName: string, serviceFqdn: string, portName: string, protocol: string): DnsAnswer {
    const name = this.question.name;
    if (service.spec?.type === 'ExternalName') {
      const port = findServicePort(service, portName, protocol);
      const target = trimDot(service.spec.externalName ?? '');
      if (!port || target === '') return this.nxdomain();
      if (!this.wantsSrv()) return this.nodata();
      return reply('NOERROR', true, [srvRecord(name, target, port)]);
    }
    if (!isHeadless(service)) {
      const port = findServicePort(service, portName, protocol);
      if (!port) return this.nxdomain();
      if (!this.wantsSrv()) return this.nodata();
      const additionals = clusterIPv4s(service).map((address) => aRecord(serviceFqdn, address));
      return reply('NOERROR', true, [srvRecord(name, serviceFqdn, port)], [], additionals);
    }
    const slices = this.view.slicesOf(namespace, serviceName);
    const targets = headlessSrvTargets(publishedEndpoints(service, slices), portName, protocol);
    // The name exists when a port of that name exists, on the Service or its slices, ready endpoints or not.
    if (targets.length === 0 && !findServicePort(service, portName, protocol) && !slices.some((s) => findSlicePort(s, portName, protocol)))
      return this.nxdomain();
    if (!this.wantsSrv() || targets.length === 0) return this.nodata();
    const answers: Answer[] = [];
    const additionals: Answer[] = [];
    const added = new Set<string>();
    for (const { endpoint, port } of targets) {
      const target = `${endpoint.label}.${serviceFqdn}`;
      answers.push(srvRecord(name, target, port));
      if (added.has(endpoint.address)) continue;
      added.add(endpoint.address);
      additionals.push(aRecord(target, endpoint.address));
    }
    return reply('NOERROR', true, answers, [], additionals);
  }

  private hasPortsOf(service: Readonly<Service>, namespace: string, serviceName: string, protocol: string): boolean {
    const matches = (p: { protocol?: string; name?: string }) => Boolean(p.name) && (p.protocol ?? 'TCP').toLowerCase() === protocol;
    if ((service.spec?.ports ?? []).some(matches)) return true;
    return this.view.slicesOf(namespace, serviceName).some((s) => (s.ports ?? []).some(matches));
  }

  /** `<a-b-c-d>.<ns>.pod.<domain>`: any well-formed address answers (CoreDNS's `pods insecure`). */
  private underPod(): DnsAnswer {
    const labels = this.lower;
    if (labels.length <= 2) return this.nodata();
    if (labels.length !== 3) return this.nxdomain();
    const address = addressFromDashes(labels[0]!);
    if (!address) return this.nxdomain();
    if (!this.wantsAddress()) return this.nodata();
    return reply('NOERROR', true, [aRecord(this.question.name, address)]);
  }

  private wantsAddress(): boolean {
    return this.type === 'A' || this.type === 'ANY';
  }

  private wantsSrv(): boolean {
    return this.type === 'SRV' || this.type === 'ANY';
  }

  /** The name exists but has nothing of the type asked: NOERROR, the SOA for negative caching. */
  private nodata(): DnsAnswer {
    return reply('NOERROR', true, [], [this.soa(this.zone)]);
  }

  private nxdomain(): DnsAnswer {
    return reply('NXDOMAIN', true, [], [this.soa(this.zone)]);
  }

  private soa(name: string): Answer {
    return {
      type: 'SOA',
      name,
      ttl: RECORD_TTL,
      data: {
        mname: `ns.dns.${this.zone}`,
        rname: `hostmaster.${this.zone}`,
        serial: SOA_SERIAL,
        refresh: 7200,
        retry: 1800,
        expire: 86400,
        // RFC 2308: a resolver caches a negative answer for min(SOA TTL, minimum).
        minimum: RECORD_TTL,
      },
    };
  }
}

function aRecord(name: string, address: string): StringAnswer {
  return { type: 'A', name, ttl: RECORD_TTL, data: address };
}

function srvRecord(name: string, target: string, port: number): SrvAnswer {
  return { type: 'SRV', name, ttl: RECORD_TTL, data: { priority: 0, weight: SRV_WEIGHT, port, target } };
}

/** A dual-stack Service lists both families in clusterIPs; A records carry the IPv4 ones. */
function clusterIPv4s(service: Readonly<Service>): string[] {
  const spec = service.spec;
  const listed = spec?.clusterIPs && spec.clusterIPs.length > 0 ? spec.clusterIPs : spec?.clusterIP ? [spec.clusterIP] : [];
  return listed.filter((ip) => isIPv4(ip));
}

function uniqueAddresses(addresses: string[]): string[] {
  return addresses.length < 2 ? addresses : [...new Set(addresses)];
}

function findServicePort(service: Readonly<Service>, portName: string, protocol: string): number | undefined {
  const port = (service.spec?.ports ?? []).find((p) => p.name?.toLowerCase() === portName && (p.protocol ?? 'TCP').toLowerCase() === protocol);
  return port?.port;
}

function findSlicePort(slice: Readonly<EndpointSlice>, portName: string, protocol: string): number | undefined {
  const port = (slice.ports ?? []).find((p) => p.name?.toLowerCase() === portName && (p.protocol ?? 'TCP').toLowerCase() === protocol);
  return port?.port;
}

/** Each published endpoint with the port its own slice gives the named port. */
function headlessSrvTargets(endpoints: PublishedEndpoint[], portName: string, protocol: string): { endpoint: PublishedEndpoint; port: number }[] {
  const targets: { endpoint: PublishedEndpoint; port: number }[] = [];
  for (const endpoint of endpoints) {
    const port = findSlicePort(endpoint.slice, portName, protocol);
    if (port !== undefined) targets.push({ endpoint, port });
  }
  return targets;
}
