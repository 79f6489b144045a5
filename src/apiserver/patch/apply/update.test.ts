import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../api/meta.js';
import { updateManagedFields, type UpdateOptions } from './update.js';
import {
  deployment,
  deploymentFields,
  deploymentSchema,
  managedEntry,
  podTemplate,
  stored,
  T0,
  T1,
  T2,
} from '../../../../test/support/apiserver/apply-schema.js';

const options = (manager: string, now: string, extra: Partial<UpdateOptions> = {}): UpdateOptions => ({
  manager,
  operation: 'Update',
  schema: deploymentSchema,
  apiVersion: 'apps/v1',
  now,
  ...extra,
});

function create(object: KubeObject, manager: string): KubeObject {
  updateManagedFields(undefined, object, options(manager, T0));
  return stored(object);
}

/** What a PUT or patch would store: a copy of `live` changed by `edit`. */
function write(live: KubeObject, manager: string, now: string, edit: (o: any) => void, extra: Partial<UpdateOptions> = {}): KubeObject {
  const next = structuredClone(live);
  edit(next);
  updateManagedFields(live, next, options(manager, now, extra));
  return next;
}

const managers = (object: KubeObject): string[] =>
  (object.metadata.managedFields ?? []).map((e) => `${e.manager}/${e.operation}${e.subresource ? '/' + e.subresource : ''}`);
const fieldsOf = (object: KubeObject, manager: string): unknown => object.metadata.managedFields?.find((e) => e.manager === manager)?.fieldsV1;

describe('updateManagedFields', () => {
  it('gives the creator every field it set', () => {
    const created = create(deployment({ replicas: 1, template: podTemplate([{ name: 'web', image: 'nginx' }]) }), 'kubectl-create');
    assert.deepEqual(created.metadata.managedFields, [
      managedEntry('kubectl-create', 'Update', T0, deploymentFields({ 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} } })),
    ]);
  });

  it('moves changed fields to the writer and drops removed fields from everyone', () => {
    const live = create(deployment({ replicas: 1, paused: true }), 'creator');
    const next = write(live, 'editor', T1, (o) => {
      o.spec.replicas = 3;
      delete o.spec.paused;
      o.metadata.labels.tier = 'fe';
    });
    assert.deepEqual(fieldsOf(next, 'creator'), { 'f:metadata': { 'f:labels': { 'f:app': {} } } });
    assert.deepEqual(fieldsOf(next, 'editor'), { 'f:metadata': { 'f:labels': { 'f:tier': {} } }, 'f:spec': { 'f:replicas': {} } });
    assert.deepEqual(managers(next), ['creator/Update', 'editor/Update']);
  });

  it('drops an entry once it owns nothing, and merges repeated writes into one entry', () => {
    const live = create(deployment({ replicas: 1 }, {}), 'creator');
    const first = write(live, 'editor', T1, (o) => (o.spec.replicas = 2));
    assert.deepEqual(managers(first), ['editor/Update']);
    const second = write(first, 'editor', T2, (o) => (o.spec.paused = true));
    assert.deepEqual(managers(second), ['editor/Update']);
    assert.deepEqual(fieldsOf(second, 'editor'), { 'f:spec': { 'f:paused': {}, 'f:replicas': {} } });
    assert.equal(second.metadata.managedFields?.[0]?.time, T2);
  });

  it('leaves managedFields untouched by a write that changes nothing tracked', () => {
    const live = create(deployment({ replicas: 1 }), 'creator');
    const next = write(live, 'kubelet', T1, (o) => {
      o.metadata.resourceVersion = '2';
      o.status = { replicas: 1 };
    });
    assert.deepEqual(next.metadata.managedFields, live.metadata.managedFields);
  });

  it('tracks only status through the status subresource, in its own entry', () => {
    const live = create(deployment({ replicas: 1 }), 'creator');
    const next = write(live, 'controller', T1, (o) => (o.status = { replicas: 1, conditions: [{ type: 'Available', status: 'True' }] }), {
      subresource: 'status',
    });
    assert.deepEqual(managers(next), ['creator/Update', 'controller/Update/status']);
    assert.deepEqual(fieldsOf(next, 'controller'), {
      'f:status': { 'f:conditions': { 'k:{"type":"Available"}': { '.': {}, 'f:status': {}, 'f:type': {} } }, 'f:replicas': {} },
    });
  });

  it('uses managedFields the client sent, and clears them for [{}]', () => {
    const live = create(deployment({ replicas: 1 }), 'creator');
    const replaced = write(live, 'fixer', T1, (o) => {
      o.metadata.managedFields = [
        { manager: 'other', operation: 'Apply', apiVersion: 'apps/v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
      ];
    });
    assert.deepEqual(managers(replaced), ['other/Apply']);
    const reordered = write(live, 'fixer', T1, (o) => {
      o.metadata.managedFields = [
        { manager: 'x', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: { 'f:p': { 'k:{"protocol":"TCP","containerPort":80}': {} } } },
      ];
    });
    assert.deepEqual(fieldsOf(reordered, 'x'), { 'f:p': { 'k:{"containerPort":80,"protocol":"TCP"}': {} } }, 'client keys come out canonical');
    const cleared = write(live, 'fixer', T1, (o) => {
      o.metadata.managedFields = [{}];
      o.spec.replicas = 4;
    });
    assert.deepEqual(managers(cleared), ['fixer/Update']);
    assert.deepEqual(fieldsOf(cleared, 'fixer'), { 'f:spec': { 'f:replicas': {} } });
    const dropped = write(live, 'fixer', T1, (o) => delete o.metadata.managedFields);
    assert.deepEqual(dropped.metadata.managedFields, live.metadata.managedFields, 'a client that omits the field keeps it');
  });

  it('folds the oldest Update entries together past ten', () => {
    let live = create(deployment({}, {}), 'creator');
    for (let i = 0; i < 12; i++) {
      live = write(
        live,
        `m${i}`,
        `2024-01-01T00:${String(10 + i).padStart(2, '0')}:00Z`,
        (o) => (o.metadata.labels = { ...o.metadata.labels, [`l${i}`]: 'x' }),
      );
    }
    const names = managers(live);
    assert.equal(names.length, 10);
    assert.ok(names.includes('ancient-changes/Update'));
    assert.ok(names.includes('m11/Update'));
  });
});
