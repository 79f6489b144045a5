// core/v1 ReplicationController (api/core/v1/generated.proto).
import { podTemplateSpec } from './core-v1-pod.js';
import { objectMeta } from './meta-v1.js';
import { ALWAYS, i32, i64, map, message, msg, PTR, REP, str, time } from './schema.js';

const replicationControllerSpec = message('ReplicationControllerSpec', {
  1: i32('replicas', PTR),
  4: i32('minReadySeconds'),
  2: map('selector'),
  3: msg('template', podTemplateSpec),
});

const replicationControllerStatus = message('ReplicationControllerStatus', {
  1: i32('replicas', ALWAYS),
  2: i32('fullyLabeledReplicas'),
  4: i32('readyReplicas'),
  5: i32('availableReplicas'),
  3: i64('observedGeneration'),
  6: msg(
    'conditions',
    message('ReplicationControllerCondition', { 1: str('type'), 2: str('status'), 3: time('lastTransitionTime'), 4: str('reason'), 5: str('message') }),
    REP,
  ),
});

export const replicationController = message('ReplicationController', {
  1: msg('metadata', objectMeta),
  2: msg('spec', replicationControllerSpec),
  3: msg('status', replicationControllerStatus),
});
