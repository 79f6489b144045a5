// What the agent adds to the core/v1 types (src/api/core): the ConfigMap and Secret it reads
// for volumes and env, and small helpers over pods. The objects come from the API, which
// validated and defaulted them, so the agent trusts their shape.
import type { KubeObject } from '../../api/meta.js';
import type { Pod, RestartPolicy } from '../../api/core/index.js';
import type { PortMapping } from '../runtime/runtime.js';

export interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
}

export interface Secret extends KubeObject {
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

export function podUid(pod: Pick<KubeObject, 'metadata'>): string {
  return pod.metadata.uid ?? '';
}

export function podFullName(pod: Pick<KubeObject, 'metadata'>): string {
  return `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name ?? ''}`;
}

export function restartPolicyOf(pod: Pod): RestartPolicy {
  return pod.spec.restartPolicy ?? 'Always';
}

/** The hostPorts the pod's sandbox publishes, from every container (init ones too). */
export function sandboxPorts(pod: Pod): PortMapping[] {
  const out: PortMapping[] = [];
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort) continue;
      const mapping: PortMapping = { containerPort: p.containerPort, hostPort: p.hostPort, protocol: p.protocol === 'UDP' ? 'UDP' : 'TCP' };
      if (p.hostIP) mapping.hostIP = p.hostIP;
      out.push(mapping);
    }
  }
  return out;
}

/** The pod's sandbox holds nothing of the node's (hostPorts, the host's network): any sandbox on the pod network serves it. */
export function sandboxHoldsNoNodeResource(pod: Pod): boolean {
  return !pod.spec.hostNetwork && sandboxPorts(pod).length === 0;
}

export function isTerminalPhase(phase: string | undefined): phase is 'Succeeded' | 'Failed' {
  return phase === 'Succeeded' || phase === 'Failed';
}
