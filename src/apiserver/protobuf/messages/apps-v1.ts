// apps/v1 Deployment, ReplicaSet, DaemonSet, StatefulSet, ControllerRevision
// (api/apps/v1/generated.proto).
import { persistentVolumeClaim } from './core-v1.js';
import { podTemplateSpec } from './core-v1-pod.js';
import { labelSelector, objectMeta } from './meta-v1.js';
import { ALWAYS, bool, i32, i64, intOrString, message, msg, PTR, rawJson, REP, str, time } from './schema.js';

const metadata = msg('metadata', objectMeta);

// Deployment, ReplicaSet, DaemonSet and StatefulSet conditions share numbering 1-5 except
// Deployment's two timestamps.
const workloadCondition = (name: string) =>
  message(name, { 1: str('type'), 2: str('status'), 3: time('lastTransitionTime'), 4: str('reason'), 5: str('message') });

const rollingUpdate = (name: string) => message(name, { 1: intOrString('maxUnavailable'), 2: intOrString('maxSurge') });

const deploymentSpec = message('DeploymentSpec', {
  1: i32('replicas', PTR),
  2: msg('selector', labelSelector),
  3: msg('template', podTemplateSpec),
  4: msg('strategy', message('DeploymentStrategy', { 1: str('type'), 2: msg('rollingUpdate', rollingUpdate('RollingUpdateDeployment')) })),
  5: i32('minReadySeconds'),
  6: i32('revisionHistoryLimit', PTR),
  7: bool('paused'),
  9: i32('progressDeadlineSeconds', PTR),
  10: str('podReplacementPolicy', PTR),
});

const deploymentCondition = message('DeploymentCondition', {
  1: str('type'),
  2: str('status'),
  6: time('lastUpdateTime'),
  7: time('lastTransitionTime'),
  4: str('reason'),
  5: str('message'),
});

const deploymentStatus = message('DeploymentStatus', {
  1: i64('observedGeneration'),
  2: i32('replicas'),
  3: i32('updatedReplicas'),
  7: i32('readyReplicas'),
  4: i32('availableReplicas'),
  5: i32('unavailableReplicas'),
  9: i32('terminatingReplicas', PTR),
  6: msg('conditions', deploymentCondition, REP),
  8: i32('collisionCount', PTR),
});

export const deployment = message('Deployment', { 1: metadata, 2: msg('spec', deploymentSpec), 3: msg('status', deploymentStatus) });

const replicaSetStatus = message('ReplicaSetStatus', {
  1: i32('replicas', ALWAYS),
  2: i32('fullyLabeledReplicas'),
  4: i32('readyReplicas'),
  5: i32('availableReplicas'),
  7: i32('terminatingReplicas', PTR),
  3: i64('observedGeneration'),
  6: msg('conditions', workloadCondition('ReplicaSetCondition'), REP),
});

export const replicaSet = message('ReplicaSet', {
  1: metadata,
  2: msg(
    'spec',
    message('ReplicaSetSpec', {
      1: i32('replicas', PTR),
      4: i32('minReadySeconds'),
      2: msg('selector', labelSelector),
      3: msg('template', podTemplateSpec),
    }),
  ),
  3: msg('status', replicaSetStatus),
});

const daemonSetSpec = message('DaemonSetSpec', {
  1: msg('selector', labelSelector),
  2: msg('template', podTemplateSpec),
  3: msg('updateStrategy', message('DaemonSetUpdateStrategy', { 1: str('type'), 2: msg('rollingUpdate', rollingUpdate('RollingUpdateDaemonSet')) })),
  4: i32('minReadySeconds'),
  6: i32('revisionHistoryLimit', PTR),
});

const daemonSetStatus = message('DaemonSetStatus', {
  1: i32('currentNumberScheduled', ALWAYS),
  2: i32('numberMisscheduled', ALWAYS),
  3: i32('desiredNumberScheduled', ALWAYS),
  4: i32('numberReady', ALWAYS),
  5: i64('observedGeneration'),
  6: i32('updatedNumberScheduled'),
  7: i32('numberAvailable'),
  8: i32('numberUnavailable'),
  9: i32('collisionCount', PTR),
  10: msg('conditions', workloadCondition('DaemonSetCondition'), REP),
});

export const daemonSet = message('DaemonSet', { 1: metadata, 2: msg('spec', daemonSetSpec), 3: msg('status', daemonSetStatus) });

const statefulSetSpec = message('StatefulSetSpec', {
  1: i32('replicas', PTR),
  2: msg('selector', labelSelector),
  3: msg('template', podTemplateSpec),
  4: msg('volumeClaimTemplates', persistentVolumeClaim, REP),
  5: str('serviceName'),
  6: str('podManagementPolicy'),
  7: msg(
    'updateStrategy',
    message('StatefulSetUpdateStrategy', {
      1: str('type'),
      2: msg('rollingUpdate', message('RollingUpdateStatefulSetStrategy', { 1: i32('partition', PTR), 2: intOrString('maxUnavailable') })),
    }),
  ),
  8: i32('revisionHistoryLimit', PTR),
  9: i32('minReadySeconds'),
  10: msg('persistentVolumeClaimRetentionPolicy', message('StatefulSetPersistentVolumeClaimRetentionPolicy', { 1: str('whenDeleted'), 2: str('whenScaled') })),
  11: msg('ordinals', message('StatefulSetOrdinals', { 1: i32('start', ALWAYS) })),
});

const statefulSetStatus = message('StatefulSetStatus', {
  1: i64('observedGeneration'),
  2: i32('replicas', ALWAYS),
  3: i32('readyReplicas'),
  4: i32('currentReplicas'),
  5: i32('updatedReplicas'),
  6: str('currentRevision'),
  7: str('updateRevision'),
  9: i32('collisionCount', PTR),
  10: msg('conditions', workloadCondition('StatefulSetCondition'), REP),
  11: i32('availableReplicas'),
});

export const statefulSet = message('StatefulSet', { 1: metadata, 2: msg('spec', statefulSetSpec), 3: msg('status', statefulSetStatus) });

export const controllerRevision = message('ControllerRevision', { 1: metadata, 2: rawJson('data'), 3: i64('revision', ALWAYS) });
