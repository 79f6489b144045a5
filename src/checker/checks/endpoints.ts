// Endpoints and EndpointSlices that disagree with the ready pods of their Service. The expected
// ready addresses come from the endpoints controller's own rules (desiredSubsets, and the slice
// rule: every pod with an address, ready unless terminating). The repair only nudges the
// Service, which makes both endpoints controllers reconcile it: it runs every round.
import { type Service, SERVICE_NAME_LABEL, type EndpointSlice } from '../../api/services.js';
import type { KubeObject } from '../../api/meta.js';
import { isTerminating, podIPFor, selectorMatches, serviceFamilies, serviceSelector, shouldPodBeInEndpoints } from '../../controllers/endpoints/pods.js';
import { isPodReady } from '../../api/core/pod-conditions.js';
import { isManagedSlice } from '../../controllers/endpoints/slices.js';
import { desiredSubsets, MAX_ENDPOINTS_CAPACITY, type EndpointSubset } from '../../controllers/endpoints/subsets.js';
import { nudge } from '../live.js';
import { refOf, type Check, type Finding, type FindingKind, type Snapshot } from '../types.js';
import type { Pod } from '../../api/core/index.js';

/** `ip/pod-uid` of every ready address. */
type ReadySet = Set<string>;

function readyInSubsets(subsets: readonly EndpointSubset[]): ReadySet {
  return new Set(subsets.flatMap((subset) => (subset.addresses ?? []).map((a) => `${a.ip}/${a.targetRef?.uid ?? ''}`)));
}

function readyInSlices(slices: readonly EndpointSlice[]): ReadySet {
  return new Set(
    slices.flatMap((slice) =>
      (slice.endpoints ?? [])
        .filter((endpoint) => endpoint.conditions?.ready === true)
        .map((endpoint) => `${endpoint.addresses?.[0] ?? ''}/${endpoint.targetRef?.uid ?? ''}`),
    ),
  );
}

/** What the slice controller marks ready: any pod with an address, ready and not terminating (or every one, publishNotReadyAddresses). */
function expectedSliceReady(service: Service, pods: readonly Pod[], family: 'IPv4' | 'IPv6'): ReadySet {
  const publishNotReady = service.spec?.publishNotReadyAddresses === true;
  const ready = new Set<string>();
  for (const pod of pods) {
    const ip = podIPFor(pod, family);
    if (!ip || !shouldPodBeInEndpoints(pod, true)) continue;
    if (publishNotReady || (isPodReady(pod) && !isTerminating(pod))) ready.add(`${ip}/${pod.metadata.uid ?? ''}`);
  }
  return ready;
}

function difference(expected: ReadySet, actual: ReadySet): string | undefined {
  const missing = [...expected].filter((entry) => !actual.has(entry));
  const extra = [...actual].filter((entry) => !expected.has(entry));
  if (missing.length === 0 && extra.length === 0) return undefined;
  const show = (list: string[]) =>
    list
      .slice(0, 3)
      .map((entry) => entry.split('/')[0])
      .join(', ') + (list.length > 3 ? ', ...' : '');
  const parts: string[] = [];
  if (missing.length) parts.push(`${missing.length} ready pod address(es) missing (${show(missing)})`);
  if (extra.length) parts.push(`${extra.length} address(es) listed ready that no ready pod has (${show(extra)})`);
  return parts.join('; ');
}

/** A pod or service that changed within the settle time may still be on its way into the endpoints. */
function settling(service: Service, pods: readonly Pod[], snapshot: Snapshot, settleMs: number): boolean {
  const recent = (time: string | undefined) => time !== undefined && snapshot.now - Date.parse(time) < settleMs;
  if (recent(service.metadata.creationTimestamp)) return true;
  return pods.some(
    (pod) =>
      recent(pod.metadata.creationTimestamp) ||
      recent(pod.metadata.deletionTimestamp ?? undefined) ||
      (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && recent((c as { lastTransitionTime?: string }).lastTransitionTime)),
  );
}

export const endpointsAgreement: Check = async (snapshot, { options }) => {
  const endpointsByKey = new Map(snapshot.endpoints.map((e) => [`${e.metadata.namespace}/${e.metadata.name}`, e]));
  const slicesByService = new Map<string, EndpointSlice[]>();
  for (const slice of snapshot.endpointSlices as EndpointSlice[]) {
    if (!isManagedSlice(slice) || slice.metadata.deletionTimestamp) continue;
    const key = `${slice.metadata.namespace}/${slice.metadata.labels?.[SERVICE_NAME_LABEL]}`;
    slicesByService.set(key, [...(slicesByService.get(key) ?? []), slice]);
  }
  const findings: Finding[] = [];
  for (const service of snapshot.services as Service[]) {
    const selector = serviceSelector(service);
    if (!selector || service.metadata.deletionTimestamp) continue;
    const key = `${service.metadata.namespace}/${service.metadata.name}`;
    const pods = (snapshot.pods as Pod[]).filter(
      (pod) => pod.metadata.namespace === service.metadata.namespace && selectorMatches(selector, pod.metadata.labels),
    );
    if (settling(service, pods, snapshot, options.settleMs)) continue;
    const expected = readyInSubsets(desiredSubsets(service, pods));
    // Past capacity the controller truncates on purpose; the slices still list every pod.
    const endpoints = endpointsByKey.get(key);
    const endpointsGap =
      expected.size > MAX_ENDPOINTS_CAPACITY ? undefined : difference(expected, readyInSubsets((endpoints?.['subsets'] as EndpointSubset[] | undefined) ?? []));
    const family = serviceFamilies(service)[0] ?? 'IPv4';
    const slices = (slicesByService.get(key) ?? []).filter((slice) => slice.addressType === family);
    const slicesGap = difference(expectedSliceReady(service, pods, family), readyInSlices(slices));
    const report = (kind: FindingKind, what: string, gap: string, object: KubeObject) => {
      const ref = refOf(object);
      findings.push({
        kind,
        object: ref,
        message: `${what} of Service ${key} disagree with its ready pods: ${gap}`,
        repair: { action: 'nudge the Service so that the endpoints controllers reconcile it', nudge: true, run: (api) => nudge(api, refOf(service)) },
      });
    };
    // The finding goes on the object at fault; a missing Endpoints object is the Service's fault.
    if (endpointsGap) report('EndpointsMismatch', 'the Endpoints', endpointsGap, endpoints ?? service);
    if (slicesGap) report('EndpointSliceMismatch', 'the EndpointSlices', slicesGap, slices[0] ?? service);
  }
  return findings;
};
