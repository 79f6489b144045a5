// The EndpointSlices of a service, planned as Kubernetes' endpointslice reconciler plans them:
// one set of slices per address type, endpoints grouped by the ports they resolve to, at most
// `maxPerSlice` endpoints per slice, and as few writes as possible: existing slices keep the
// endpoints they hold, new endpoints fill slices that change anyway before others, and a slice
// that would be deleted while another is created is rewritten instead. A service without any
// endpoint keeps one empty placeholder slice per address type.
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import { isControlledBy, newControllerRef } from '../../api/owner-references.js';
import { findPort, hostnameFor, isTerminating, podIPFor, serviceFamilies, shouldPodBeInEndpoints, targetRefOf, type IPFamily } from './pods.js';
import { isPodReady } from '../../api/core/pod-conditions.js';
import { semanticEqual } from '../../util/json-equal.js';
import { isHeadless, SERVICE_NAME_LABEL, type EndpointSlice, type Service, type SliceEndpoint, type SlicePort } from '../../api/services.js';
import type { Pod } from '../../api/core/index.js';

export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
export const MANAGED_BY = 'endpointslice-controller.drover.dev';
export const HEADLESS_LABEL = 'service.kubernetes.io/headless';
export const MAX_ENDPOINTS_PER_SLICE = 100;

export interface SlicePlan {
  create: EndpointSlice[];
  update: EndpointSlice[];
  delete: EndpointSlice[];
}

export interface PlanOptions {
  /** The zone of a node (its topology.kubernetes.io/zone label), when known. */
  zoneOf?(nodeName: string): string | undefined;
  maxPerSlice?: number;
}

/** Whether this controller manages the slice (slices of other managers are left alone). */
export function isManagedSlice(slice: Readonly<KubeObject>): boolean {
  return slice.metadata.labels?.[MANAGED_BY_LABEL] === MANAGED_BY && slice.metadata.labels?.[SERVICE_NAME_LABEL] !== undefined;
}

export function sliceLabels(service: Readonly<Service>): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [key, value] of Object.entries(service.metadata.labels ?? {})) {
    if (key !== SERVICE_NAME_LABEL && key !== MANAGED_BY_LABEL && key !== HEADLESS_LABEL) labels[key] = value;
  }
  if (isHeadless(service)) labels[HEADLESS_LABEL] = '';
  labels[SERVICE_NAME_LABEL] = service.metadata.name ?? '';
  labels[MANAGED_BY_LABEL] = MANAGED_BY;
  return labels;
}

function ownerOf(service: Readonly<Service>): OwnerReference {
  return newControllerRef(service, { apiVersion: 'v1', kind: 'Service' });
}

/** A pod's endpoint by its uid; a stored endpoint may have been edited by others, so read with care. */
function endpointKey(endpoint: Readonly<SliceEndpoint>): string {
  const uid = endpoint.targetRef?.uid;
  return uid ? uid : (endpoint.addresses?.[0] ?? '');
}

const ENDPOINT_FIELDS = new Set(['addresses', 'conditions', 'hostname', 'targetRef', 'nodeName', 'zone']);

/**
 * Whether a stored endpoint has exactly the content of a planned one. Written out field by
 * field: this runs for every endpoint of every slice of a service on each reconcile.
 */
function sameEndpoint(stored: Readonly<SliceEndpoint>, planned: Readonly<SliceEndpoint>): boolean {
  for (const key in stored) if (!ENDPOINT_FIELDS.has(key) && (stored as unknown as Record<string, unknown>)[key] !== undefined) return false;
  const a = stored.conditions ?? {};
  const b = planned.conditions;
  const ra = stored.targetRef ?? {};
  const rb = planned.targetRef;
  const addresses = stored.addresses ?? [];
  return (
    addresses.length === planned.addresses.length &&
    addresses.every((address, i) => address === planned.addresses[i]) &&
    a.ready === b.ready &&
    a.serving === b.serving &&
    a.terminating === b.terminating &&
    (stored.hostname ?? '') === (planned.hostname ?? '') &&
    (stored.nodeName ?? '') === (planned.nodeName ?? '') &&
    (stored.zone ?? '') === (planned.zone ?? '') &&
    ra.kind === rb.kind &&
    ra.namespace === rb.namespace &&
    ra.name === rb.name &&
    ra.uid === rb.uid &&
    Object.keys(ra).length === Object.keys(rb).length &&
    Object.keys(a).length === 3
  );
}

function sameEndpoints(stored: readonly Readonly<SliceEndpoint>[] | null | undefined, planned: readonly Readonly<SliceEndpoint>[]): boolean {
  const list = stored ?? [];
  return list.length === planned.length && list.every((endpoint, i) => sameEndpoint(endpoint, planned[i]!));
}

/** Port sets compare regardless of order. */
function portsKey(ports: readonly SlicePort[] | null | undefined): string {
  return (ports ?? [])
    .map((p) => JSON.stringify([p.name ?? '', p.port ?? null, p.protocol ?? 'TCP', p.appProtocol ?? '']))
    .sort()
    .join(';');
}

function endpointOf(pod: Readonly<Pod>, service: Readonly<Service>, ip: string, options: PlanOptions): SliceEndpoint {
  const serving = isPodReady(pod);
  const terminating = isTerminating(pod);
  // Never ready while terminating, unless the service publishes not-ready addresses.
  const ready = service.spec?.publishNotReadyAddresses === true || (serving && !terminating);
  const endpoint: SliceEndpoint = { addresses: [ip], conditions: { ready, serving, terminating }, targetRef: targetRefOf(pod) };
  const hostname = hostnameFor(pod, service);
  if (hostname) endpoint.hostname = hostname;
  const nodeName = pod.spec?.nodeName;
  if (nodeName) {
    endpoint.nodeName = nodeName;
    const zone = options.zoneOf?.(nodeName);
    if (zone) endpoint.zone = zone;
  }
  return endpoint;
}

interface Group {
  ports: SlicePort[];
  endpoints: Map<string, SliceEndpoint>;
}

/** The endpoints of one address type, grouped by the ports they resolve to. */
function desiredGroups(service: Readonly<Service>, pods: readonly Readonly<Pod>[], family: IPFamily, options: PlanOptions): Map<string, Group> {
  const servicePorts = service.spec?.ports ?? [];
  // Most pods resolve the service's ports to the same numbers: one group per resolution.
  const byResolution = new Map<string, Group>();
  const groups = new Map<string, Group>();
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    const ip = podIPFor(pod, family);
    if (!ip) continue;
    const numbers = servicePorts.map((servicePort) => findPort(pod, servicePort));
    const resolution = numbers.join(',');
    let group = byResolution.get(resolution);
    if (!group) {
      const ports: SlicePort[] = [];
      servicePorts.forEach((servicePort, i) => {
        const number = numbers[i];
        if (number === undefined) return;
        const port: SlicePort = { name: servicePort.name ?? '', port: number, protocol: servicePort.protocol ?? 'TCP' };
        if (servicePort.appProtocol) port.appProtocol = servicePort.appProtocol;
        ports.push(port);
      });
      const key = portsKey(ports);
      group = groups.get(key);
      if (!group) groups.set(key, (group = { ports, endpoints: new Map() }));
      byResolution.set(resolution, group);
    }
    const endpoint = endpointOf(pod, service, ip, options);
    group.endpoints.set(endpointKey(endpoint), endpoint);
  }
  return groups;
}

/** A slice being kept, with the content it should have. */
interface Draft {
  slice: Readonly<EndpointSlice> | undefined;
  ports: SlicePort[];
  endpoints: SliceEndpoint[];
  changed: boolean;
}

/** Plans the writes that turn `existing` (this service's managed slices) into the desired slices. */
export function planSlices(
  service: Readonly<Service>,
  pods: readonly Readonly<Pod>[],
  existing: readonly Readonly<EndpointSlice>[],
  options: PlanOptions = {},
): SlicePlan {
  const max = options.maxPerSlice ?? MAX_ENDPOINTS_PER_SLICE;
  const families = serviceFamilies(service);
  const plan: SlicePlan = { create: [], update: [], delete: [] };
  const owned = existing.filter((slice) => {
    const ours = isControlledBy(slice, service);
    if (ours && families.includes(slice.addressType as IPFamily)) return true;
    plan.delete.push(slice as EndpointSlice);
    return false;
  });
  for (const family of families) {
    const drafts = planFamily(
      desiredGroups(service, pods, family, options),
      owned.filter((s) => s.addressType === family),
      max,
    );
    for (const draft of drafts.keep) emit(plan, service, family, draft);
    plan.delete.push(...drafts.remove.map((slice) => slice as EndpointSlice));
  }
  return plan;
}

function planFamily(groups: Map<string, Group>, slices: readonly Readonly<EndpointSlice>[], max: number): { keep: Draft[]; remove: Readonly<EndpointSlice>[] } {
  const keep: Draft[] = [];
  const spare: Readonly<EndpointSlice>[] = [];
  const byPorts = new Map<string, Readonly<EndpointSlice>[]>();
  for (const slice of slices) {
    const key = portsKey(slice.ports);
    const list = byPorts.get(key);
    if (list) list.push(slice);
    else byPorts.set(key, [slice]);
  }
  const fresh: Draft[] = [];
  for (const [key, group] of groups) {
    const remaining = new Map(group.endpoints);
    const drafts: Draft[] = [];
    for (const slice of byPorts.get(key) ?? []) {
      const endpoints: SliceEndpoint[] = [];
      for (const current of slice.endpoints ?? []) {
        const wanted = remaining.get(endpointKey(current));
        if (!wanted || endpoints.length >= max) continue;
        endpoints.push(wanted);
        remaining.delete(endpointKey(current));
      }
      if (endpoints.length === 0) spare.push(slice);
      else drafts.push({ slice, ports: group.ports, endpoints, changed: !sameEndpoints(slice.endpoints, endpoints) });
    }
    byPorts.delete(key);
    // New endpoints go first to slices written anyway, then to others with room, then to new slices.
    const added = [...remaining.values()].sort((a, b) => (endpointKey(a) < endpointKey(b) ? -1 : 1));
    const order = [...drafts.filter((d) => d.changed), ...drafts.filter((d) => !d.changed)];
    for (const draft of order) {
      while (added.length > 0 && draft.endpoints.length < max) {
        draft.endpoints.push(added.shift()!);
        draft.changed = true;
      }
    }
    for (let i = 0; i < added.length; i += max) fresh.push({ slice: undefined, ports: group.ports, endpoints: added.slice(i, i + max), changed: true });
    keep.push(...drafts);
  }
  // Slices whose port set no longer exists are spare too.
  for (const orphans of byPorts.values()) spare.push(...orphans);
  if (keep.length === 0 && fresh.length === 0) {
    // No endpoint at all: one empty placeholder slice (reusing a spare one when there is one).
    const placeholder = spare.find((s) => (s.endpoints ?? []).length === 0 && (s.ports ?? []).length === 0) ?? spare[0];
    fresh.push({ slice: undefined, ports: [], endpoints: [], changed: true });
    if (placeholder) spare.unshift(...spare.splice(spare.indexOf(placeholder), 1));
  }
  // A slice that would be deleted while another is created is rewritten instead.
  for (const draft of fresh) {
    const recycled = spare.shift();
    keep.push(recycled ? { ...draft, slice: recycled } : draft);
  }
  return { keep, remove: spare };
}

function emit(plan: SlicePlan, service: Readonly<Service>, family: IPFamily, draft: Draft): void {
  const labels = sliceLabels(service);
  const owner = ownerOf(service);
  if (!draft.slice) {
    const name = service.metadata.name ?? '';
    plan.create.push({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { generateName: `${name}-`, namespace: service.metadata.namespace ?? '', labels, ownerReferences: [owner] },
      addressType: family,
      endpoints: draft.endpoints,
      ports: draft.ports,
    });
    return;
  }
  const current = draft.slice;
  const same =
    sameEndpoints(current.endpoints, draft.endpoints) &&
    portsKey(current.ports) === portsKey(draft.ports) &&
    semanticEqual(current.metadata.labels ?? {}, labels) &&
    semanticEqual(current.metadata.ownerReferences ?? [], [owner]);
  if (same) return;
  const updated = structuredClone(current) as EndpointSlice;
  updated.metadata.labels = labels;
  updated.metadata.ownerReferences = [owner];
  updated.endpoints = draft.endpoints;
  updated.ports = draft.ports;
  plan.update.push(updated);
}
