// core/v1 Pod, PodSpec, PodTemplateSpec and their scheduling fields (core/v1/generated.proto).
import {
  appArmorProfile,
  container,
  ephemeralContainer,
  resourceRequirements,
  seccompProfile,
  seLinuxOptions,
  windowsSecurityContextOptions,
} from './core-v1-container.js';
import { podStatus } from './core-v1-pod-status.js';
import { localObjectReference } from './core-v1-refs.js';
import { volume } from './core-v1-volume.js';
import { labelSelector, objectMeta } from './meta-v1.js';
import { ALWAYS, bool, i32, i64, map, message, msg, PTR, REP, str } from './schema.js';

const nodeSelectorRequirement = message('NodeSelectorRequirement', { 1: str('key'), 2: str('operator'), 3: str('values', REP) });

export const nodeSelectorTerm = message('NodeSelectorTerm', {
  1: msg('matchExpressions', nodeSelectorRequirement, REP),
  2: msg('matchFields', nodeSelectorRequirement, REP),
});

export const nodeSelector = message('NodeSelector', { 1: msg('nodeSelectorTerms', nodeSelectorTerm, REP) });

const nodeAffinity = message('NodeAffinity', {
  1: msg('requiredDuringSchedulingIgnoredDuringExecution', nodeSelector),
  2: msg(
    'preferredDuringSchedulingIgnoredDuringExecution',
    message('PreferredSchedulingTerm', { 1: i32('weight', ALWAYS), 2: msg('preference', nodeSelectorTerm) }),
    REP,
  ),
});

const podAffinityTerm = message('PodAffinityTerm', {
  1: msg('labelSelector', labelSelector),
  2: str('namespaces', REP),
  3: str('topologyKey'),
  4: msg('namespaceSelector', labelSelector),
  5: str('matchLabelKeys', REP),
  6: str('mismatchLabelKeys', REP),
});

const weightedPodAffinityTerm = message('WeightedPodAffinityTerm', { 1: i32('weight', ALWAYS), 2: msg('podAffinityTerm', podAffinityTerm) });

// PodAffinity and PodAntiAffinity share one shape.
const interPodAffinity = (name: string) =>
  message(name, {
    1: msg('requiredDuringSchedulingIgnoredDuringExecution', podAffinityTerm, REP),
    2: msg('preferredDuringSchedulingIgnoredDuringExecution', weightedPodAffinityTerm, REP),
  });

const affinity = message('Affinity', {
  1: msg('nodeAffinity', nodeAffinity),
  2: msg('podAffinity', interPodAffinity('PodAffinity')),
  3: msg('podAntiAffinity', interPodAffinity('PodAntiAffinity')),
});

const toleration = message('Toleration', {
  1: str('key'),
  2: str('operator'),
  3: str('value'),
  4: str('effect'),
  5: i64('tolerationSeconds', PTR),
});

const topologySpreadConstraint = message('TopologySpreadConstraint', {
  1: i32('maxSkew', ALWAYS),
  2: str('topologyKey'),
  3: str('whenUnsatisfiable'),
  4: msg('labelSelector', labelSelector),
  5: i32('minDomains', PTR),
  6: str('nodeAffinityPolicy', PTR),
  7: str('nodeTaintsPolicy', PTR),
  8: str('matchLabelKeys', REP),
});

const podSecurityContext = message('PodSecurityContext', {
  1: msg('seLinuxOptions', seLinuxOptions),
  8: msg('windowsOptions', windowsSecurityContextOptions),
  2: i64('runAsUser', PTR),
  6: i64('runAsGroup', PTR),
  3: bool('runAsNonRoot', PTR),
  4: i64('supplementalGroups', REP),
  12: str('supplementalGroupsPolicy', PTR),
  5: i64('fsGroup', PTR),
  7: msg('sysctls', message('Sysctl', { 1: str('name'), 2: str('value') }), REP),
  9: str('fsGroupChangePolicy', PTR),
  10: msg('seccompProfile', seccompProfile),
  11: msg('appArmorProfile', appArmorProfile),
  13: str('seLinuxChangePolicy', PTR),
});

const podDNSConfig = message('PodDNSConfig', {
  1: str('nameservers', REP),
  2: str('searches', REP),
  3: msg('options', message('PodDNSConfigOption', { 1: str('name'), 2: str('value', PTR) }), REP),
});

const podResourceClaim = message('PodResourceClaim', {
  1: str('name'),
  3: str('resourceClaimName', PTR),
  4: str('resourceClaimTemplateName', PTR),
});

export const podSpec = message('PodSpec', {
  1: msg('volumes', volume, REP),
  20: msg('initContainers', container, REP),
  2: msg('containers', container, REP),
  34: msg('ephemeralContainers', ephemeralContainer, REP),
  3: str('restartPolicy'),
  4: i64('terminationGracePeriodSeconds', PTR),
  5: i64('activeDeadlineSeconds', PTR),
  6: str('dnsPolicy'),
  7: map('nodeSelector'),
  8: str('serviceAccountName'),
  9: str('serviceAccount'),
  21: bool('automountServiceAccountToken', PTR),
  10: str('nodeName'),
  11: bool('hostNetwork'),
  12: bool('hostPID'),
  13: bool('hostIPC'),
  27: bool('shareProcessNamespace', PTR),
  14: msg('securityContext', podSecurityContext),
  15: msg('imagePullSecrets', localObjectReference, REP),
  16: str('hostname'),
  17: str('subdomain'),
  18: msg('affinity', affinity),
  19: str('schedulerName'),
  22: msg('tolerations', toleration, REP),
  23: msg('hostAliases', message('HostAlias', { 1: str('ip'), 2: str('hostnames', REP) }), REP),
  24: str('priorityClassName'),
  25: i32('priority', PTR),
  26: msg('dnsConfig', podDNSConfig),
  28: msg('readinessGates', message('PodReadinessGate', { 1: str('conditionType') }), REP),
  29: str('runtimeClassName', PTR),
  30: bool('enableServiceLinks', PTR),
  31: str('preemptionPolicy', PTR),
  32: map('overhead', 'quantity'),
  33: msg('topologySpreadConstraints', topologySpreadConstraint, REP),
  35: bool('setHostnameAsFQDN', PTR),
  36: msg('os', message('PodOS', { 1: str('name') })),
  37: bool('hostUsers', PTR),
  38: msg('schedulingGates', message('PodSchedulingGate', { 1: str('name') }), REP),
  39: msg('resourceClaims', podResourceClaim, REP),
  40: msg('resources', resourceRequirements),
  41: str('hostnameOverride', PTR),
});

export const pod = message('Pod', { 1: msg('metadata', objectMeta), 2: msg('spec', podSpec), 3: msg('status', podStatus) });

export const podTemplateSpec = message('PodTemplateSpec', { 1: msg('metadata', objectMeta), 2: msg('spec', podSpec) });

export const podTemplate = message('PodTemplate', { 1: msg('metadata', objectMeta), 2: msg('template', podTemplateSpec) });
