// core/v1 Container and everything hanging off it: env, resources, probes, lifecycle hooks,
// security context (core/v1/generated.proto).
import { localObjectReference } from './core-v1-refs.js';
import { ALWAYS, bool, i32, i64, intOrString, map, message, msg, PTR, quantity, REP, str, type FieldSpec } from './schema.js';

// LocalObjectReference is embedded with `json:",inline"` in the selectors below.
const inlineRef: FieldSpec = msg('localObjectReference', localObjectReference, { inline: true });

export const objectFieldSelector = message('ObjectFieldSelector', { 1: str('apiVersion'), 2: str('fieldPath') });

export const resourceFieldSelector = message('ResourceFieldSelector', {
  1: str('containerName'),
  2: str('resource'),
  3: quantity('divisor'),
});

const configMapKeySelector = message('ConfigMapKeySelector', { 1: inlineRef, 2: str('key'), 3: bool('optional', PTR) });
const secretKeySelector = message('SecretKeySelector', { 1: inlineRef, 2: str('key'), 3: bool('optional', PTR) });
const fileKeySelector = message('FileKeySelector', {
  1: str('volumeName'),
  2: str('path'),
  3: str('key'),
  4: bool('optional', PTR),
});

const envVarSource = message('EnvVarSource', {
  1: msg('fieldRef', objectFieldSelector),
  2: msg('resourceFieldRef', resourceFieldSelector),
  3: msg('configMapKeyRef', configMapKeySelector),
  4: msg('secretKeyRef', secretKeySelector),
  5: msg('fileKeyRef', fileKeySelector),
});

const envVar = message('EnvVar', { 1: str('name'), 2: str('value'), 3: msg('valueFrom', envVarSource) });

const envFromSource = message('EnvFromSource', {
  1: str('prefix'),
  2: msg('configMapRef', message('ConfigMapEnvSource', { 1: inlineRef, 2: bool('optional', PTR) })),
  3: msg('secretRef', message('SecretEnvSource', { 1: inlineRef, 2: bool('optional', PTR) })),
});

const containerPort = message('ContainerPort', {
  1: str('name'),
  2: i32('hostPort'),
  3: i32('containerPort', ALWAYS),
  4: str('protocol'),
  5: str('hostIP'),
});

export const resourceRequirements = message('ResourceRequirements', {
  1: map('limits', 'quantity'),
  2: map('requests', 'quantity'),
  3: msg('claims', message('ResourceClaim', { 1: str('name'), 2: str('request') }), REP),
});

const volumeMount = message('VolumeMount', {
  1: str('name'),
  2: bool('readOnly'),
  7: str('recursiveReadOnly', PTR),
  3: str('mountPath'),
  4: str('subPath'),
  5: str('mountPropagation', PTR),
  6: str('subPathExpr'),
});

const execAction = message('ExecAction', { 1: str('command', REP) });
const httpGetAction = message('HTTPGetAction', {
  1: str('path'),
  2: intOrString('port'),
  3: str('host'),
  4: str('scheme'),
  5: msg('httpHeaders', message('HTTPHeader', { 1: str('name'), 2: str('value') }), REP),
});
const tcpSocketAction = message('TCPSocketAction', { 1: intOrString('port'), 2: str('host') });
const grpcAction = message('GRPCAction', { 1: i32('port', ALWAYS), 2: str('service', PTR) });
const sleepAction = message('SleepAction', { 1: i64('seconds', ALWAYS) });

// ProbeHandler and LifecycleHandler number their first three actions alike in generated.proto.
const handlerActions: Record<number, FieldSpec> = {
  1: msg('exec', execAction),
  2: msg('httpGet', httpGetAction),
  3: msg('tcpSocket', tcpSocketAction),
};

const probeHandler = message('ProbeHandler', { ...handlerActions, 4: msg('grpc', grpcAction) });

const probe = message('Probe', {
  1: msg('handler', probeHandler, { inline: true }),
  2: i32('initialDelaySeconds'),
  3: i32('timeoutSeconds'),
  4: i32('periodSeconds'),
  5: i32('successThreshold'),
  6: i32('failureThreshold'),
  7: i64('terminationGracePeriodSeconds', PTR),
});

const lifecycleHandler = message('LifecycleHandler', { ...handlerActions, 4: msg('sleep', sleepAction) });

const lifecycle = message('Lifecycle', {
  1: msg('postStart', lifecycleHandler),
  2: msg('preStop', lifecycleHandler),
  3: str('stopSignal', PTR),
});

export const seLinuxOptions = message('SELinuxOptions', { 1: str('user'), 2: str('role'), 3: str('type'), 4: str('level') });
export const seccompProfile = message('SeccompProfile', { 1: str('type'), 2: str('localhostProfile', PTR) });
export const appArmorProfile = message('AppArmorProfile', { 1: str('type'), 2: str('localhostProfile', PTR) });
export const windowsSecurityContextOptions = message('WindowsSecurityContextOptions', {
  1: str('gmsaCredentialSpecName', PTR),
  2: str('gmsaCredentialSpec', PTR),
  3: str('runAsUserName', PTR),
  4: bool('hostProcess', PTR),
});

const securityContext = message('SecurityContext', {
  1: msg('capabilities', message('Capabilities', { 1: str('add', REP), 2: str('drop', REP) })),
  2: bool('privileged', PTR),
  3: msg('seLinuxOptions', seLinuxOptions),
  10: msg('windowsOptions', windowsSecurityContextOptions),
  4: i64('runAsUser', PTR),
  8: i64('runAsGroup', PTR),
  5: bool('runAsNonRoot', PTR),
  6: bool('readOnlyRootFilesystem', PTR),
  7: bool('allowPrivilegeEscalation', PTR),
  9: str('procMount', PTR),
  11: msg('seccompProfile', seccompProfile),
  12: msg('appArmorProfile', appArmorProfile),
  13: msg('ulimits', message('Ulimit', { 1: str('name'), 2: i64('hard', ALWAYS), 3: i64('soft', ALWAYS) }), REP),
});

const containerRestartRule = message('ContainerRestartRule', {
  1: str('action'),
  2: msg('exitCodes', message('ContainerRestartRuleOnExitCodes', { 1: str('operator'), 2: i32('values', REP) })),
});

export const container = message('Container', {
  1: str('name'),
  2: str('image'),
  3: str('command', REP),
  4: str('args', REP),
  5: str('workingDir'),
  6: msg('ports', containerPort, REP),
  19: msg('envFrom', envFromSource, REP),
  7: msg('env', envVar, REP),
  8: msg('resources', resourceRequirements),
  23: msg('resizePolicy', message('ContainerResizePolicy', { 1: str('resourceName'), 2: str('restartPolicy') }), REP),
  24: str('restartPolicy', PTR),
  25: msg('restartPolicyRules', containerRestartRule, REP),
  9: msg('volumeMounts', volumeMount, REP),
  21: msg('volumeDevices', message('VolumeDevice', { 1: str('name'), 2: str('devicePath') }), REP),
  10: msg('livenessProbe', probe),
  11: msg('readinessProbe', probe),
  22: msg('startupProbe', probe),
  12: msg('lifecycle', lifecycle),
  13: str('terminationMessagePath'),
  20: str('terminationMessagePolicy'),
  14: str('imagePullPolicy'),
  15: msg('securityContext', securityContext),
  16: bool('stdin'),
  17: bool('stdinOnce'),
  18: bool('tty'),
});

// EphemeralContainerCommon repeats Container's fields with the same numbers; it is inlined.
export const ephemeralContainer = message('EphemeralContainer', {
  1: msg('ephemeralContainerCommon', message('EphemeralContainerCommon', container.fields), { inline: true }),
  2: str('targetContainerName'),
});
