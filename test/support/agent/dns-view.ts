// A DnsView held in plain maps, and the Services and slices the DNS tests and benchmark build.
import type { EndpointSlice, Service, ServicePort, SliceEndpoint, SlicePort } from '../../../src/api/services.js';
import { SERVICE_NAME_LABEL } from '../../../src/api/services.js';
import type { DnsView } from '../../../src/agent/dns/records.js';

export class MemoryDnsView implements DnsView {
  private readonly services = new Map<string, Service>();
  private readonly slices = new Map<string, EndpointSlice[]>();

  addService(service: Service, ...slices: EndpointSlice[]): this {
    const key = `${service.metadata.namespace}/${service.metadata.name}`;
    this.services.set(key, service);
    this.slices.set(key, slices);
    return this;
  }

  get(namespace: string, name: string): Readonly<Service> | undefined {
    return this.services.get(`${namespace}/${name}`);
  }

  slicesOf(namespace: string, name: string): readonly Readonly<EndpointSlice>[] {
    return this.slices.get(`${namespace}/${name}`) ?? [];
  }
}

export function service(namespace: string, name: string, spec: NonNullable<Service['spec']>): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { namespace, name }, spec } as Service;
}

export function endpoint(address: string, options: { ready?: boolean; hostname?: string } = {}): SliceEndpoint {
  const ready = options.ready ?? true;
  return {
    addresses: [address],
    conditions: { ready, serving: ready, terminating: false },
    ...(options.hostname ? { hostname: options.hostname } : {}),
    targetRef: { kind: 'Pod', namespace: 'default', name: `pod-${address}`, uid: `uid-${address}` },
  };
}

export function slice(namespace: string, serviceName: string, endpoints: SliceEndpoint[], ports: SlicePort[], suffix = 'a'): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { namespace, name: `${serviceName}-${suffix}`, labels: { [SERVICE_NAME_LABEL]: serviceName } },
    addressType: 'IPv4',
    endpoints,
    ports,
  } as EndpointSlice;
}

export function ports(...list: ServicePort[]): ServicePort[] {
  return list;
}
