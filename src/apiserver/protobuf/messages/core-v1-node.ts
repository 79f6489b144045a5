// core/v1 Node (core/v1/generated.proto): what a node agent registers and reports.
import { objectMeta } from './meta-v1.js';
import { bool, i32, i64, map, message, msg, REP, str, time } from './schema.js';

const taint = message('Taint', { 1: str('key'), 2: str('value'), 3: str('effect'), 4: time('timeAdded') });

const nodeSpec = message('NodeSpec', {
  1: str('podCIDR'),
  7: str('podCIDRs', REP),
  3: str('providerID'),
  4: bool('unschedulable'),
  5: msg('taints', taint, REP),
  2: str('externalID'),
});

const nodeCondition = message('NodeCondition', {
  1: str('type'),
  2: str('status'),
  3: time('lastHeartbeatTime'),
  4: time('lastTransitionTime'),
  5: str('reason'),
  6: str('message'),
});

const nodeSystemInfo = message('NodeSystemInfo', {
  1: str('machineID'),
  2: str('systemUUID'),
  3: str('bootID'),
  4: str('kernelVersion'),
  5: str('osImage'),
  6: str('containerRuntimeVersion'),
  7: str('kubeletVersion'),
  8: str('kubeProxyVersion'),
  9: str('operatingSystem'),
  10: str('architecture'),
  11: msg('swap', message('NodeSwapStatus', { 1: i64('capacity', { keep: true }) })),
});

const nodeStatus = message('NodeStatus', {
  1: map('capacity', 'quantity'),
  2: map('allocatable', 'quantity'),
  3: str('phase'),
  4: msg('conditions', nodeCondition, REP),
  5: msg('addresses', message('NodeAddress', { 1: str('type'), 2: str('address') }), REP),
  6: msg('daemonEndpoints', message('NodeDaemonEndpoints', { 1: msg('kubeletEndpoint', message('DaemonEndpoint', { 1: i32('Port') })) })),
  7: msg('nodeInfo', nodeSystemInfo),
  8: msg('images', message('ContainerImage', { 1: str('names', REP), 2: i64('sizeBytes') }), REP),
  9: str('volumesInUse', REP),
  10: msg('volumesAttached', message('AttachedVolume', { 1: str('name'), 2: str('devicePath') }), REP),
  14: str('declaredFeatures', REP),
});

export const node = message('Node', { 1: msg('metadata', objectMeta), 2: msg('spec', nodeSpec), 3: msg('status', nodeStatus) });
