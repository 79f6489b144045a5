// The restricted level of the Pod Security Standards, on top of baseline: current hardening
// practice at some cost in compatibility. Three of these replace a baseline check at this level
// (a pod is told about its capabilities, seccomp profile and volumes once, in the stricter words).
import { arr, objects, obj, type Obj } from '../../../api/validation/util.js';
import { unconfinedSeccomp } from './baseline-checks.js';
import {
  containersOf,
  containersPhrase,
  isWindows,
  joinQuoted,
  nameOf,
  pluralize,
  securityContextOf,
  sortedSet,
  type PodCheck,
  type PodView,
  type Violation,
} from './pod-view.js';

/** Inline volume sources whose data comes from the cluster, not from the node or the network. */
const ALLOWED_VOLUME_SOURCES = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret']);

function allowPrivilegeEscalation(pod: PodView): Violation | undefined {
  if (isWindows(pod.spec)) return undefined;
  const names = containersOf(pod.spec)
    .filter((c) => securityContextOf(c)['allowPrivilegeEscalation'] !== false)
    .map(nameOf);
  if (names.length === 0) return undefined;
  return { reason: 'allowPrivilegeEscalation != false', detail: `${containersPhrase(names)} must set securityContext.allowPrivilegeEscalation=false` };
}

function restrictedCapabilities(pod: PodView): Violation | undefined {
  if (isWindows(pod.spec)) return undefined;
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const forbidden: string[] = [];
  for (const container of containersOf(pod.spec)) {
    const capabilities = obj(securityContextOf(container)['capabilities']);
    if (!arr(capabilities['drop']).includes('ALL')) missingDropAll.push(nameOf(container));
    const added = arr(capabilities['add'])
      .map(String)
      .filter((cap) => cap !== 'NET_BIND_SERVICE');
    if (added.length > 0) addingForbidden.push(nameOf(container));
    forbidden.push(...added);
  }
  const details: string[] = [];
  if (missingDropAll.length > 0) details.push(`${containersPhrase(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (addingForbidden.length > 0) {
    details.push(`${containersPhrase(addingForbidden)} must not include ${joinQuoted(sortedSet(forbidden))} in securityContext.capabilities.add`);
  }
  return details.length === 0 ? undefined : { reason: 'unrestricted capabilities', detail: details.join('; ') };
}

function restrictedVolumes(pod: PodView): Violation | undefined {
  const names: string[] = [];
  const types: string[] = [];
  for (const volume of objects(pod.spec['volumes'])) {
    const sources = Object.keys(volume).filter((key) => key !== 'name' && volume[key] !== undefined && volume[key] !== null);
    if (sources.some((source) => ALLOWED_VOLUME_SOURCES.has(source))) continue;
    names.push(nameOf(volume));
    types.push(sources[0] ?? 'unknown');
  }
  if (names.length === 0) return undefined;
  const distinct = sortedSet(types);
  return {
    reason: 'restricted volume types',
    detail:
      `${pluralize('volume', 'volumes', names.length)} ${joinQuoted(names)} ${pluralize('uses', 'use', names.length)} ` +
      `${pluralize('restricted volume type', 'restricted volume types', distinct.length)} ${joinQuoted(distinct)}`,
  };
}

/**
 * A setting the pod may make for all its containers or each container for itself (runAsNonRoot,
 * seccompProfile): who set a bad value, and which containers are left without a good one.
 */
function podOrEveryContainer(pod: PodView, read: (holder: Obj) => 'good' | 'bad' | 'unset'): { badSetters: string[]; unsetContainers: string[] } {
  const podValue = read(pod.spec);
  const badContainers: string[] = [];
  const unsetContainers: string[] = [];
  for (const container of containersOf(pod.spec)) {
    const value = read(container);
    if (value === 'bad') badContainers.push(nameOf(container));
    else if (value === 'unset' && podValue !== 'good') unsetContainers.push(nameOf(container));
  }
  const badSetters = podValue === 'bad' ? ['pod'] : [];
  if (badContainers.length > 0) badSetters.push(containersPhrase(badContainers));
  return { badSetters, unsetContainers };
}

function runAsNonRoot(pod: PodView): Violation | undefined {
  const { badSetters, unsetContainers } = podOrEveryContainer(pod, (holder) => {
    const value = securityContextOf(holder)['runAsNonRoot'];
    return value === true ? 'good' : value === false ? 'bad' : 'unset';
  });
  const reason = 'runAsNonRoot != true';
  if (badSetters.length > 0) return { reason, detail: `${badSetters.join(' and ')} must not set securityContext.runAsNonRoot=false` };
  if (unsetContainers.length > 0) return { reason, detail: `pod or ${containersPhrase(unsetContainers)} must set securityContext.runAsNonRoot=true` };
  return undefined;
}

function runAsUser(pod: PodView): Violation | undefined {
  const root = (holder: Obj): boolean => securityContextOf(holder)['runAsUser'] === 0;
  const who = root(pod.spec) ? ['pod'] : [];
  const names = containersOf(pod.spec).filter(root).map(nameOf);
  if (names.length > 0) who.push(containersPhrase(names));
  return who.length === 0 ? undefined : { reason: 'runAsUser=0', detail: `${who.join(' and ')} must not set runAsUser=0` };
}

function seccompProfileRestricted(pod: PodView): Violation | undefined {
  if (isWindows(pod.spec)) return undefined;
  const badTypes: string[] = [];
  const badSetters = unconfinedSeccomp(pod, badTypes);
  if (badSetters.length > 0) {
    return {
      reason: 'seccompProfile',
      detail: `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuoted(sortedSet(badTypes))}`,
    };
  }
  // Every type set now is a confining one: what is left to find is a container without one.
  const { unsetContainers } = podOrEveryContainer(pod, (holder) => {
    const profile = securityContextOf(holder)['seccompProfile'];
    return profile === undefined || profile === null ? 'unset' : 'good';
  });
  if (unsetContainers.length === 0) return undefined;
  return {
    reason: 'seccompProfile',
    detail: `pod or ${containersPhrase(unsetContainers)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
  };
}

export const RESTRICTED_CHECKS: readonly PodCheck[] = [
  { id: 'allowPrivilegeEscalation', level: 'restricted', check: allowPrivilegeEscalation },
  { id: 'capabilities_restricted', level: 'restricted', replaces: ['capabilities_baseline'], check: restrictedCapabilities },
  { id: 'restrictedVolumes', level: 'restricted', replaces: ['hostPathVolumes'], check: restrictedVolumes },
  { id: 'runAsNonRoot', level: 'restricted', check: runAsNonRoot },
  { id: 'runAsUser', level: 'restricted', check: runAsUser },
  { id: 'seccompProfile_restricted', level: 'restricted', replaces: ['seccompProfile_baseline'], check: seccompProfileRestricted },
];
