// What the endpoints controllers read from pods and services, and Kubernetes' rules for which
// pods back a service (pkg/controller/util/endpoint and endpointslice/util).
import type { Pod } from '../../api/core/index.js';
import { isPodReady } from '../../api/core/pod-conditions.js';
import type { Service, ServicePort } from '../../api/services.js';

export type IPFamily = 'IPv4' | 'IPv6';

/** The selector of a service that has one; an empty map is no selector (as after a round trip). */
export function serviceSelector(service: Readonly<Service>): Readonly<Record<string, string>> | undefined {
  const selector = service.spec?.selector;
  return selector && Object.keys(selector).length > 0 ? selector : undefined;
}

export function selectorMatches(selector: Readonly<Record<string, string>>, labels: Readonly<Record<string, string>> | undefined): boolean {
  for (const key in selector) if (labels?.[key] !== selector[key]) return false;
  return true;
}

/** The families the service's endpoints are published for; IPv4 for legacy objects without any. */
export function serviceFamilies(service: Readonly<Service>): IPFamily[] {
  const families = (service.spec?.ipFamilies ?? []).filter((f): f is IPFamily => f === 'IPv4' || f === 'IPv6');
  return families.length > 0 ? [...new Set(families)] : ['IPv4'];
}

export function isPodTerminal(pod: Readonly<Pod>): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

export function isTerminating(pod: Readonly<Pod>): boolean {
  return pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;
}

function podIPs(pod: Readonly<Pod>): string[] {
  const listed = (pod.status?.podIPs ?? []).map((entry) => entry.ip ?? '').filter((ip) => ip !== '');
  if (listed.length > 0) return listed;
  return pod.status?.podIP ? [pod.status.podIP] : [];
}

/** ShouldPodBeInEndpoints: an address, not finished, and (unless asked) not terminating. */
export function shouldPodBeInEndpoints(pod: Readonly<Pod>, includeTerminating: boolean): boolean {
  if (isPodTerminal(pod)) return false;
  if (podIPs(pod).length === 0) return false;
  return includeTerminating || !isTerminating(pod);
}

/** The pod's IP of one family. */
export function podIPFor(pod: Readonly<Pod>, family: IPFamily): string | undefined {
  return podIPs(pod).find((ip) => ip.includes(':') === (family === 'IPv6'));
}

/** A pod's hostname is published when it names the service as its subdomain. */
export function hostnameFor(pod: Readonly<Pod>, service: Readonly<Service>): string | undefined {
  const hostname = pod.spec?.hostname;
  if (!hostname || pod.spec?.subdomain !== service.metadata.name || pod.metadata.namespace !== service.metadata.namespace) return undefined;
  return hostname;
}

/**
 * The pod port a service port sends to (podutil.FindPort): a number as is, a name looked up
 * in the ports of the containers (and of sidecar init containers) with the same protocol.
 */
export function findPort(pod: Readonly<Pod>, port: Readonly<ServicePort>): number | undefined {
  const target = port.targetPort ?? port.port;
  if (typeof target === 'number') return target;
  if (typeof target !== 'string' || target === '') return undefined;
  const protocol = port.protocol ?? 'TCP';
  const sidecars = (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  for (const container of [...(pod.spec?.containers ?? []), ...sidecars]) {
    for (const candidate of container.ports ?? []) {
      if (candidate.name === target && (candidate.protocol ?? 'TCP') === protocol && typeof candidate.containerPort === 'number') {
        return candidate.containerPort;
      }
    }
  }
  return undefined;
}

export function targetRefOf(pod: Readonly<Pod>): { kind: string; namespace: string; name: string; uid: string } {
  return { kind: 'Pod', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' };
}

/**
 * What of a pod its endpoints are made of. Agents rewrite pod status often (restart counts,
 * timestamps); updates that leave this unchanged need no reconcile.
 */
export function endpointFingerprint(pod: Readonly<Pod>): string {
  return JSON.stringify([
    pod.metadata.uid,
    pod.metadata.deletionTimestamp ?? '',
    podIPs(pod),
    isPodReady(pod),
    isPodTerminal(pod),
    pod.spec?.nodeName ?? '',
    pod.spec?.hostname ?? '',
    pod.spec?.subdomain ?? '',
  ]);
}
