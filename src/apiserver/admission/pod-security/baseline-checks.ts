// The baseline level of the Pod Security Standards: what prevents known privilege escalations
// while the default (minimally specified) pod still passes. Each check returns the violation
// in Kubernetes' own words, so messages match what users of Kubernetes already search for.
import { arr, objects, obj, text, type Obj } from '../../../api/validation/util.js';
import {
  containersOf,
  containersPhrase,
  joinQuoted,
  nameOf,
  pluralize,
  securityContextOf,
  sortedSet,
  type PodCheck,
  type PodView,
  type Violation,
} from './pod-view.js';

/** The container runtime's default capabilities: adding them back takes nothing more. */
const DEFAULT_CAPABILITIES = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

/** Sysctls namespaced and isolated per pod (the kubelet's safe set, Kubernetes 1.32). */
const SAFE_SYSCTLS = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
  'net.ipv4.tcp_rmem',
  'net.ipv4.tcp_wmem',
]);

const SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t']);
const CONFINING_PROFILE_TYPES = new Set(['RuntimeDefault', 'Localhost']);
const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

/** Names of the containers for which `bad` holds. */
function containersWhere(pod: PodView, bad: (container: Obj) => boolean): string[] {
  return containersOf(pod.spec).filter(bad).map(nameOf);
}

/** Who set a forbidden value, as messages name them: `pod`, `containers "a", "b"`, joined with " and ". */
function setters(podSets: boolean, containers: string[]): string[] {
  const who = podSets ? ['pod'] : [];
  if (containers.length > 0) who.push(containersPhrase(containers));
  return who;
}

function hostNamespaces(pod: PodView): Violation | undefined {
  const shared = (['hostNetwork', 'hostPID', 'hostIPC'] as const).filter((field) => pod.spec[field] === true);
  return shared.length === 0 ? undefined : { reason: 'host namespaces', detail: shared.map((field) => `${field}=true`).join(', ') };
}

function privileged(pod: PodView): Violation | undefined {
  const names = containersWhere(pod, (c) => securityContextOf(c)['privileged'] === true);
  return names.length === 0 ? undefined : { reason: 'privileged', detail: `${containersPhrase(names)} must not set securityContext.privileged=true` };
}

function nonDefaultCapabilities(pod: PodView): Violation | undefined {
  const added: string[] = [];
  const names = containersWhere(pod, (c) => {
    const extra = arr(obj(securityContextOf(c)['capabilities'])['add'])
      .map(String)
      .filter((cap) => !DEFAULT_CAPABILITIES.has(cap));
    added.push(...extra);
    return extra.length > 0;
  });
  if (names.length === 0) return undefined;
  return {
    reason: 'non-default capabilities',
    detail: `${containersPhrase(names)} must not include ${joinQuoted(sortedSet(added))} in securityContext.capabilities.add`,
  };
}

function hostPathVolumes(pod: PodView): Violation | undefined {
  const names = objects(pod.spec['volumes'])
    .filter((volume) => volume['hostPath'] !== undefined && volume['hostPath'] !== null)
    .map(nameOf);
  return names.length === 0 ? undefined : { reason: 'hostPath volumes', detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuoted(names)}` };
}

function hostPorts(pod: PodView): Violation | undefined {
  const ports: string[] = [];
  const names = containersWhere(pod, (c) => {
    const used = objects(c['ports'])
      .map((port) => port['hostPort'])
      .filter((port) => typeof port === 'number' && port !== 0);
    ports.push(...used.map(String));
    return used.length > 0;
  });
  if (names.length === 0) return undefined;
  const distinct = sortedSet(ports);
  const verb = pluralize('uses', 'use', names.length);
  return { reason: 'hostPort', detail: `${containersPhrase(names)} ${verb} ${pluralize('hostPort', 'hostPorts', distinct.length)} ${distinct.join(', ')}` };
}

/** AppArmor: the profile fields and the older per-container annotations alike. */
function appArmorProfile(pod: PodView): Violation | undefined {
  const badTypes: string[] = [];
  const unconfining = unconfiningProfile('appArmorProfile', badTypes);
  const who = setters(unconfining(pod.spec), containersWhere(pod, unconfining));
  const annotations = Object.entries(pod.annotations)
    .filter(([key, value]) => key.startsWith(APPARMOR_ANNOTATION_PREFIX) && value !== '' && value !== 'runtime/default' && !value.startsWith('localhost/'))
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
    .sort();
  if (annotations.length > 0) who.push(pluralize('annotation', 'annotations', annotations.length));
  if (who.length === 0) return undefined;
  const values = [...sortedSet(badTypes), ...annotations];
  return {
    reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', values.length),
    detail: `${who.join(' and ')} must not set AppArmor profile type to ${joinQuoted(values)}`,
  };
}

function seLinuxOptions(pod: PodView): Violation | undefined {
  const badTypes: string[] = [];
  let setsUser = false;
  let setsRole = false;
  const custom = (holder: Obj): boolean => {
    const options = securityContextOf(holder)['seLinuxOptions'];
    if (options === undefined || options === null) return false;
    const type = text(obj(options)['type']);
    const user = text(obj(options)['user']) !== '';
    const role = text(obj(options)['role']) !== '';
    const badType = !SELINUX_TYPES.has(type);
    if (badType) badTypes.push(type);
    setsUser ||= user;
    setsRole ||= role;
    return badType || user || role;
  };
  const who = setters(custom(pod.spec), containersWhere(pod, custom));
  if (who.length === 0) return undefined;
  const types = sortedSet(badTypes);
  const what: string[] = [];
  // As in Kubernetes, user and role are named only beside a bad type.
  if (types.length > 0) {
    what.push(`${pluralize('type', 'types', types.length)} ${joinQuoted(types)}`);
    if (setsUser) what.push('user may not be set');
    if (setsRole) what.push('role may not be set');
  }
  return { reason: 'seLinuxOptions', detail: `${who.join(' and ')} set forbidden securityContext.seLinuxOptions: ${what.join('; ')}` };
}

function procMount(pod: PodView): Violation | undefined {
  const kinds: string[] = [];
  const names = containersWhere(pod, (c) => {
    const mount = securityContextOf(c)['procMount'];
    if (mount === undefined || mount === null || mount === 'Default') return false;
    kinds.push(String(mount));
    return true;
  });
  if (names.length === 0) return undefined;
  return { reason: 'procMount', detail: `${containersPhrase(names)} must not set securityContext.procMount to ${joinQuoted(sortedSet(kinds))}` };
}

/** Shared by baseline (only an explicit bad type) and restricted (a type must also be set). */
export function unconfinedSeccomp(pod: PodView, badTypes: string[]): string[] {
  const unconfined = unconfiningProfile('seccompProfile', badTypes);
  return setters(unconfined(pod.spec), containersWhere(pod, unconfined));
}

/**
 * Whether a pod spec's or a container's securityContext sets the profile (seccomp or AppArmor)
 * to a type that does not confine; each such type is noted in `badTypes`.
 */
function unconfiningProfile(field: 'seccompProfile' | 'appArmorProfile', badTypes: string[]): (holder: Obj) => boolean {
  return (holder) => {
    const profile = securityContextOf(holder)[field];
    if (profile === undefined || profile === null) return false;
    const type = text(obj(profile)['type']);
    if (CONFINING_PROFILE_TYPES.has(type)) return false;
    badTypes.push(type);
    return true;
  };
}

function seccompProfileBaseline(pod: PodView): Violation | undefined {
  const badTypes: string[] = [];
  const who = unconfinedSeccomp(pod, badTypes);
  if (who.length === 0) return undefined;
  return { reason: 'seccompProfile', detail: `${who.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuoted(sortedSet(badTypes))}` };
}

function sysctls(pod: PodView): Violation | undefined {
  const unsafe = objects(securityContextOf(pod.spec)['sysctls'])
    .map((sysctl) => text(sysctl['name']))
    .filter((name) => !SAFE_SYSCTLS.has(name));
  return unsafe.length === 0 ? undefined : { reason: 'forbidden sysctls', detail: unsafe.join(', ') };
}

function windowsHostProcess(pod: PodView): Violation | undefined {
  const hostProcess = (holder: Obj): boolean => obj(securityContextOf(holder)['windowsOptions'])['hostProcess'] === true;
  const who = setters(hostProcess(pod.spec), containersWhere(pod, hostProcess));
  return who.length === 0 ? undefined : { reason: 'hostProcess', detail: `${who.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true` };
}

export const BASELINE_CHECKS: readonly PodCheck[] = [
  { id: 'appArmorProfile', level: 'baseline', check: appArmorProfile },
  { id: 'capabilities_baseline', level: 'baseline', check: nonDefaultCapabilities },
  { id: 'hostNamespaces', level: 'baseline', check: hostNamespaces },
  { id: 'hostPathVolumes', level: 'baseline', check: hostPathVolumes },
  { id: 'hostPorts', level: 'baseline', check: hostPorts },
  { id: 'privileged', level: 'baseline', check: privileged },
  { id: 'procMount', level: 'baseline', check: procMount },
  { id: 'seLinuxOptions', level: 'baseline', check: seLinuxOptions },
  { id: 'seccompProfile_baseline', level: 'baseline', check: seccompProfileBaseline },
  { id: 'sysctls', level: 'baseline', check: sysctls },
  { id: 'windowsHostProcess', level: 'baseline', check: windowsHostProcess },
];
