// Which endpoints of a headless Service DNS publishes, and under what names.
import type { EndpointSlice, Service } from '../../api/services.js';
import { dashedAddress } from './names.js';

export interface PublishedEndpoint {
  address: string;
  /** The endpoint's hostname, or its address in dashes when it has none. */
  label: string;
  slice: Readonly<EndpointSlice>;
}

/**
 * The IPv4 endpoints DNS names for a Service: ready ones, or all of them when the Service asks
 * for not-ready addresses too. An address listed by two slices (as during a slice's hand-over)
 * is published once.
 */
export function publishedEndpoints(service: Readonly<Service>, slices: readonly Readonly<EndpointSlice>[]): PublishedEndpoint[] {
  const includeNotReady = service.spec?.publishNotReadyAddresses === true;
  const seen = new Set<string>();
  const published: PublishedEndpoint[] = [];
  for (const slice of slices) {
    if (slice.addressType !== 'IPv4') continue;
    for (const endpoint of slice.endpoints ?? []) {
      // The API reads an unset `ready` as ready; only an explicit false holds an endpoint back.
      if (!includeNotReady && endpoint.conditions?.ready === false) continue;
      for (const address of endpoint.addresses ?? []) {
        if (seen.has(address)) continue;
        seen.add(address);
        published.push({ address, label: (endpoint.hostname ?? dashedAddress(address)).toLowerCase(), slice });
      }
    }
  }
  return published;
}
