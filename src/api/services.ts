// The shapes of Services and EndpointSlices that Drover's own components read: the endpoints
// controllers write slices from Services and pods; the agents' service proxy, cluster DNS and
// service environment read both. Only the fields someone reads are typed.
import type { KubeObject } from './meta.js';

export interface ServicePort {
  name?: string;
  port?: number;
  protocol?: string;
  appProtocol?: string;
  targetPort?: number | string;
  nodePort?: number;
}

export interface Service extends KubeObject {
  spec?: {
    selector?: Record<string, string>;
    ports?: ServicePort[];
    clusterIP?: string;
    clusterIPs?: string[];
    type?: string;
    externalName?: string;
    publishNotReadyAddresses?: boolean;
    ipFamilies?: string[];
    sessionAffinity?: string;
    sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } };
    externalTrafficPolicy?: string;
    internalTrafficPolicy?: string;
  };
}

export interface SliceEndpoint {
  addresses: string[];
  conditions: { ready: boolean; serving: boolean; terminating: boolean };
  hostname?: string;
  targetRef: { kind: string; namespace: string; name: string; uid: string };
  nodeName?: string;
  zone?: string;
}

export interface SlicePort {
  name: string;
  port?: number;
  protocol: string;
  appProtocol?: string;
}

export interface EndpointSlice extends KubeObject {
  addressType: string;
  endpoints?: SliceEndpoint[] | null;
  ports?: SlicePort[] | null;
}

/** The label naming a slice's Service. */
export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

export function isHeadless(service: Readonly<Service>): boolean {
  return service.spec?.clusterIP === 'None';
}
