// The Docker-link variables the kubelet gives every container (pkg/kubelet/envvars and
// getServiceEnvVarMap): for each Service the pod may see, `<NAME>_SERVICE_HOST`/`_PORT` and the
// `<NAME>_PORT_<port>_<PROTO>...` family Docker links once set. Programs written before cluster
// DNS (and client libraries finding the API through KUBERNETES_SERVICE_HOST) read them.
//
// Which Services: the `kubernetes` Service of `default` always (the "master services"), and with
// enableServiceLinks (true when unset) every Service of the pod's own namespace, which wins over
// the master service of the same name. Only Services with a cluster IP: headless and
// ExternalName ones have no address to give.
import type { Service } from '../../../api/services.js';
import type { ServiceDirectory } from '../../network/service-directory.js';
import type { Pod } from '../../../api/core/index.js';

/** The Services the kubelet always exposes, whatever the pod's namespace or enableServiceLinks. */
const MASTER_NAMESPACE = 'default';
const MASTER_SERVICES = new Set(['kubernetes']);

/** What a pod's service environment reads: inNamespace throws ServicesNotSyncedError before the first list. */
export type ServiceLookup = Pick<ServiceDirectory, 'inNamespace'>;

/** The spec fields read here (PodSpec does not type them). */
interface ServiceLinksSpec {
  enableServiceLinks?: boolean;
}

function hasClusterIP(service: Readonly<Service>): boolean {
  const ip = service.spec?.clusterIP;
  return service.spec?.type !== 'ExternalName' && ip !== undefined && ip !== '' && ip !== 'None';
}

/** `my-svc` → `MY_SVC`, as the kubelet names variables (dots and leading digits are left as they are). */
export function envVarName(name: string): string {
  return name.replace(/-/g, '_').toUpperCase();
}

/** `host:port`, IPv6 hosts in brackets (Go's net.JoinHostPort, which the kubelet uses). */
function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * The variables of the given Services, in the kubelet's order per Service. A Service without a
 * cluster IP is skipped; one without ports (the API requires some) gets only its host.
 */
export function serviceEnvVars(services: readonly Readonly<Service>[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const service of services) {
    if (!hasClusterIP(service)) continue;
    const ip = service.spec!.clusterIP!;
    const prefix = envVarName(service.metadata.name ?? '');
    env[`${prefix}_SERVICE_HOST`] = ip;
    const ports = (service.spec!.ports ?? []).filter((p) => p.port !== undefined);
    if (ports.length === 0) continue;
    env[`${prefix}_SERVICE_PORT`] = String(ports[0]!.port);
    // Only the first port may be unnamed (API validation); every named one gets its own variable.
    for (const port of ports) {
      if (port.name) env[`${prefix}_SERVICE_PORT_${envVarName(port.name)}`] = String(port.port);
    }
    ports.forEach((port, index) => {
      const protocol = (port.protocol || 'TCP').toLowerCase();
      const url = `${protocol}://${joinHostPort(ip, port.port!)}`;
      // Docker special-cases the first port: `<NAME>_PORT` is its URL.
      if (index === 0) env[`${prefix}_PORT`] = url;
      const portPrefix = `${prefix}_PORT_${port.port}_${protocol.toUpperCase()}`;
      env[portPrefix] = url;
      env[`${portPrefix}_PROTO`] = protocol;
      env[`${portPrefix}_PORT`] = String(port.port);
      env[`${portPrefix}_ADDR`] = ip;
    });
  }
  return env;
}

/** The Services whose variables a pod's containers get, by name (the pod's namespace over the master services). */
export function servicesForPod(pod: Pod, services: ServiceLookup): Readonly<Service>[] {
  const namespace = pod.metadata.namespace ?? 'default';
  const byName = new Map<string, Readonly<Service>>();
  // Read even when links are off: a container must not start without KUBERNETES_SERVICE_HOST
  // because the Services were not listed yet (this throws ServicesNotSyncedError then).
  for (const service of services.inNamespace(MASTER_NAMESPACE)) {
    const name = service.metadata.name ?? '';
    if (MASTER_SERVICES.has(name) && hasClusterIP(service)) byName.set(name, service);
  }
  if ((pod.spec as ServiceLinksSpec).enableServiceLinks !== false) {
    for (const service of services.inNamespace(namespace)) {
      if (hasClusterIP(service)) byName.set(service.metadata.name ?? '', service);
    }
  }
  return [...byName.values()];
}

/** A pod's service variables; throws ServicesNotSyncedError until the Services have been listed once. */
export function podServiceEnv(pod: Pod, services: ServiceLookup): Record<string, string> {
  return serviceEnvVars(servicesForPod(pod, services));
}
