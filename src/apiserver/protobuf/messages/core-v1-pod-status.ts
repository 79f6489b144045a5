// core/v1 PodStatus and ContainerStatus (core/v1/generated.proto). Clients rarely send these,
// but a kubelet-style client writing pods/status in protobuf does.
import { resourceRequirements } from './core-v1-container.js';
import { ALWAYS, bool, i32, i64, map, message, msg, PTR, REP, str, time } from './schema.js';

const containerState = message('ContainerState', {
  1: msg('waiting', message('ContainerStateWaiting', { 1: str('reason'), 2: str('message') })),
  2: msg('running', message('ContainerStateRunning', { 1: time('startedAt') })),
  3: msg(
    'terminated',
    message('ContainerStateTerminated', {
      1: i32('exitCode', ALWAYS),
      2: i32('signal'),
      3: str('reason'),
      4: str('message'),
      5: time('startedAt'),
      6: time('finishedAt'),
      7: str('containerID'),
    }),
  ),
});

const volumeMountStatus = message('VolumeMountStatus', {
  1: str('name'),
  2: str('mountPath'),
  3: bool('readOnly'),
  4: str('recursiveReadOnly', PTR),
});

const linuxContainerUser = message('LinuxContainerUser', { 1: i64('uid', ALWAYS), 2: i64('gid', ALWAYS), 3: i64('supplementalGroups', REP) });

const containerStatus = message('ContainerStatus', {
  1: str('name'),
  2: msg('state', containerState),
  3: msg('lastState', containerState),
  4: bool('ready', ALWAYS),
  5: i32('restartCount', ALWAYS),
  6: str('image'),
  7: str('imageID'),
  8: str('containerID'),
  9: bool('started', PTR),
  10: map('allocatedResources', 'quantity'),
  11: msg('resources', resourceRequirements),
  12: msg('volumeMounts', volumeMountStatus, REP),
  13: msg('user', message('ContainerUser', { 1: msg('linux', linuxContainerUser) })),
  15: str('stopSignal', PTR),
});

const podCondition = message('PodCondition', {
  1: str('type'),
  7: i64('observedGeneration'),
  2: str('status'),
  3: time('lastProbeTime'),
  4: time('lastTransitionTime'),
  5: str('reason'),
  6: str('message'),
});

const ipEntry = (name: string) => message(name, { 1: str('ip') });

export const podStatus = message('PodStatus', {
  17: i64('observedGeneration'),
  1: str('phase'),
  2: msg('conditions', podCondition, REP),
  3: str('message'),
  4: str('reason'),
  11: str('nominatedNodeName'),
  5: str('hostIP'),
  16: msg('hostIPs', ipEntry('HostIP'), REP),
  6: str('podIP'),
  12: msg('podIPs', ipEntry('PodIP'), REP),
  7: time('startTime'),
  10: msg('initContainerStatuses', containerStatus, REP),
  8: msg('containerStatuses', containerStatus, REP),
  9: str('qosClass'),
  13: msg('ephemeralContainerStatuses', containerStatus, REP),
  14: str('resize'),
  15: msg('resourceClaimStatuses', message('PodResourceClaimStatus', { 1: str('name'), 2: str('resourceClaimName', PTR) }), REP),
  19: map('allocatedResources', 'quantity'),
  20: msg('resources', resourceRequirements),
});
