// Prometheus's HTTP service discovery (http_sd_configs) for a Drover cluster: what Prometheus
// should scrape, as target groups. Debian's Prometheus is built without Kubernetes service
// discovery, so the API server answers the same question itself, from the same objects that
// discovery would watch: the `default/kubernetes` Endpoints (every live API server; their /metrics
// also carry the scheduler's and controllers' series) and each Node's agent endpoint
// (status.addresses + status.daemonEndpoints.kubeletEndpoint, which serves /metrics as a kubelet).
// Readable by the system:monitoring group (bootstrap-policy.ts).
import { findResource } from '../api/registry.js';
import { PROMETHEUS_TARGETS_PATH } from '../auth/components.js';
import type { ObjectRegistry } from './registry/object-registry.js';
import { ApiError } from './errors.js';
import { joinHostPort } from '../api/printers/format.js';
import { agentAddressOf } from './handlers/pod-proxy.js';

/** One http_sd target group: addresses and the labels Prometheus gives their series. */
export interface TargetGroup {
  targets: string[];
  labels: Record<string, string>;
}

const ENDPOINTS = findResource('', 'v1', 'endpoints')!;
const NODES = findResource('', 'v1', 'nodes')!;

/** `/prometheus/targets/apiservers` or `/prometheus/targets/agents`. */
export async function prometheusTargets(path: string, registry: ObjectRegistry): Promise<TargetGroup[]> {
  const which = path.slice(PROMETHEUS_TARGETS_PATH.length + 1);
  if (which === 'apiservers') return apiServerTargets(registry);
  if (which === 'agents') return agentTargets(registry);
  throw new ApiError(404, 'NotFound', `no Prometheus targets named "${which}": apiservers or agents`);
}

async function apiServerTargets(registry: ObjectRegistry): Promise<TargetGroup[]> {
  // Not there yet (a server just starting) is no targets; any other failure is the request's.
  const endpoints = await registry.get(ENDPOINTS, 'default', 'kubernetes').catch((error: { code?: number }) => {
    if (error.code === 404) return undefined;
    throw error;
  });
  const subsets = (endpoints?.['subsets'] ?? []) as Array<{ addresses?: Array<{ ip: string }>; ports?: Array<{ name?: string; port: number }> }>;
  const targets = subsets.flatMap((subset) => {
    const port = subset.ports?.find((p) => p.name === 'https')?.port;
    return port === undefined ? [] : (subset.addresses ?? []).map((address) => joinHostPort(address.ip, port));
  });
  return targets.length ? [{ targets, labels: { component: 'apiserver' } }] : [];
}

async function agentTargets(registry: ObjectRegistry): Promise<TargetGroup[]> {
  const { items } = await registry.collection(NODES).list();
  // Hollow nodes (drover simulate) have no endpoint and are left out.
  return items.flatMap((node) => {
    const agent = agentAddressOf(node);
    return agent ? [{ targets: [joinHostPort(agent.host, agent.port)], labels: { component: 'agent', node: node.metadata.name ?? '' } }] : [];
  });
}
