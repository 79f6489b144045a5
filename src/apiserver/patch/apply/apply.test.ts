import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, ManagedFieldsEntry } from '../../../api/meta.js';
import { applyServerSide, type ApplyOptions } from './apply.js';
import { ApplyConflictError, ApplyInvalidError } from './errors.js';
import { updateManagedFields } from './update.js';
import {
  deployment,
  deploymentFields,
  deploymentSchema,
  managedEntry,
  podTemplate,
  PORT_80_FIELDS,
  stored,
  T0,
  T1,
  T2,
} from '../../../../test/support/apiserver/apply-schema.js';

const apply = (live: KubeObject | undefined, config: KubeObject, manager: string, extra: Partial<ApplyOptions> = {}): KubeObject =>
  applyServerSide(live, config, { manager, force: false, schema: deploymentSchema, now: T1, ...extra });

const entryOf = (object: KubeObject, manager: string, operation = 'Apply'): ManagedFieldsEntry | undefined =>
  object.metadata.managedFields?.find((e) => e.manager === manager && e.operation === operation);

const spec = (object: KubeObject): Record<string, any> => object['spec'] as Record<string, any>;

const web = (image = 'nginx:1', extra: Record<string, unknown> = {}) => ({ name: 'web', image, ...extra });

describe('applyServerSide', () => {
  it('creates the object with one Apply entry holding exactly the applied fields', () => {
    const config = deployment({ replicas: 2, template: podTemplate([web('nginx:1', { ports: [{ containerPort: 80 }] })]) });
    const created = apply(undefined, config, 'kubectl', { now: '2024-01-01T00:01:00.123Z' });
    assert.equal(spec(created)['replicas'], 2);
    assert.deepEqual(created.metadata.managedFields, [
      managedEntry('kubectl', 'Apply', T1, deploymentFields({ 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:ports': PORT_80_FIELDS } })),
    ]);
    assert.equal(config.metadata.managedFields, undefined, 'the configuration is not modified');
  });

  it('removes fields, map entries and list items the manager stops applying', () => {
    const first = deployment({ replicas: 2, paused: false, template: podTemplate([web(), { name: 'log', image: 'busybox' }]) }, { app: 'web', tier: 'fe' });
    first.metadata.finalizers = ['a', 'b'];
    const live = stored(apply(undefined, first, 'kubectl'));
    const second = deployment({ replicas: 2, template: podTemplate([web()]) });
    second.metadata.finalizers = ['a'];
    const result = apply(live, second, 'kubectl', { now: T2 });
    assert.equal(spec(result)['paused'], undefined);
    assert.deepEqual(result.metadata.labels, { app: 'web' });
    assert.deepEqual(result.metadata.finalizers, ['a']);
    assert.deepEqual(spec(result)['template'].spec.containers, [web()]);
    assert.equal(result.metadata.uid, 'u-1', 'untracked fields survive');
    const fields = entryOf(result, 'kubectl')?.fieldsV1 as Record<string, any>;
    assert.deepEqual(Object.keys(fields['f:spec']['f:template']['f:spec']['f:containers']), ['k:{"name":"web"}']);
    assert.equal(entryOf(result, 'kubectl')?.time, T2);
  });

  it('keeps what another manager still owns inside an item the applier drops', () => {
    const live = stored(apply(undefined, deployment({ template: podTemplate([web(), { name: 'side', image: 'x:1' }]) }), 'kubectl'));
    const edited = structuredClone(live);
    (spec(edited)['template'].spec.containers[1] as { image: string }).image = 'x:2';
    updateManagedFields(live, edited, { manager: 'editor', operation: 'Update', schema: deploymentSchema, apiVersion: 'apps/v1', now: T1 });
    const result = apply(stored(edited, '2'), deployment({ template: podTemplate([web()]) }), 'kubectl', { now: T2 });
    assert.deepEqual(spec(result)['template'].spec.containers, [web(), { name: 'side', image: 'x:2' }]);
    const nulled = apply(stored(edited, '2'), deployment({ template: podTemplate([web(), { name: 'side', image: 'x:2' }]), paused: null }), 'kubectl');
    assert.equal('paused' in spec(nulled), false, 'null removes a field');
  });

  it('merges map-lists by key, unions sets and replaces atomic lists', () => {
    const live = stored(
      apply(undefined, deployment({ template: podTemplate([web('nginx:1', { args: ['a', 'b'], ports: [{ containerPort: 80, protocol: 'TCP' }] })]) }), 'one'),
    );
    const config = deployment({
      template: podTemplate([web('nginx:1', { args: ['c'], ports: [{ containerPort: 80, name: 'http' }] }), { name: 'side', image: 'x' }]),
    });
    config.metadata.finalizers = ['f'];
    const result = apply(live, config, 'two', { force: true });
    const containers = spec(result)['template'].spec.containers;
    assert.deepEqual(
      containers.map((c: { name: string }) => c.name),
      ['web', 'side'],
    );
    assert.deepEqual(containers[0].args, ['c']);
    assert.deepEqual(containers[0].ports, [{ containerPort: 80, protocol: 'TCP', name: 'http' }], 'defaulted key matches the live item');
  });

  it('lets two managers share a field, and keeps it while one of them still applies it', () => {
    const config = deployment({ replicas: 3 });
    const live = stored(apply(undefined, config, 'alice'));
    const shared = stored(apply(live, config, 'bob'));
    assert.ok(entryOf(shared, 'alice') && entryOf(shared, 'bob'));
    const { spec: _, ...withoutSpec } = deployment({});
    const aliceLeaves = apply(shared, withoutSpec as KubeObject, 'alice');
    assert.equal(spec(aliceLeaves)['replicas'], 3, 'bob still owns replicas');
    assert.deepEqual(entryOf(aliceLeaves, 'alice')?.fieldsV1, { 'f:metadata': { 'f:labels': { 'f:app': {} } } });
    assert.throws(
      () => apply(shared, deployment({ replicas: 4 }), 'alice'),
      (error: unknown) => {
        assert.ok(error instanceof ApplyConflictError);
        assert.equal(error.message, 'Apply failed with 1 conflict: conflict with "bob": .spec.replicas');
        return true;
      },
    );
  });

  it('reports a conflict with an Update manager the way Kubernetes words it', () => {
    const created = deployment({ replicas: 1, template: podTemplate([web()]) });
    updateManagedFields(undefined, created, {
      manager: 'kubectl-client-side-apply',
      operation: 'Update',
      schema: deploymentSchema,
      apiVersion: 'apps/v1',
      now: T0,
    });
    let caught: unknown;
    try {
      apply(stored(created), deployment({ replicas: 2, template: podTemplate([web()]) }), 'kubectl');
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof ApplyConflictError);
    assert.equal(caught.message, 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas');
    assert.deepEqual(caught.conflicts, [{ manager: 'kubectl-client-side-apply', field: '.spec.replicas', operation: 'Update', apiVersion: 'apps/v1' }]);
    assert.equal(caught.code, 409);
    assert.deepEqual(caught.details?.causes, [
      { reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using apps/v1', field: '.spec.replicas' },
    ]);
  });

  it('lists several conflicts grouped by manager', () => {
    const created = deployment({ replicas: 1, paused: false });
    updateManagedFields(undefined, created, { manager: 'ctl', operation: 'Update', schema: deploymentSchema, apiVersion: 'apps/v1', now: T0 });
    assert.throws(() => apply(stored(created), deployment({ replicas: 2, paused: true }), 'kubectl'), {
      message: 'Apply failed with 2 conflicts: conflicts with "ctl" using apps/v1:\n- .spec.paused\n- .spec.replicas',
    });
  });

  it('with force, changes the value and moves ownership to the applier', () => {
    const created = deployment({ replicas: 1, paused: false });
    updateManagedFields(undefined, created, { manager: 'ctl', operation: 'Update', schema: deploymentSchema, apiVersion: 'apps/v1', now: T0 });
    const result = apply(stored(created), deployment({ replicas: 5 }), 'kubectl', { force: true });
    assert.equal(spec(result)['replicas'], 5);
    assert.deepEqual(entryOf(result, 'ctl', 'Update')?.fieldsV1, { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:paused': {} } });
    assert.deepEqual(entryOf(result, 'kubectl')?.fieldsV1, { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:replicas': {} } });
    assert.deepEqual(
      result.metadata.managedFields?.map((e) => e.operation),
      ['Apply', 'Update'],
      'Apply entries sort first',
    );
  });

  it('conflicts on replicas after kubectl scale, and shares it when the values agree', () => {
    const live0 = stored(apply(undefined, deployment({ replicas: 2, template: podTemplate([web()]) }), 'kubectl'));
    const scaled = structuredClone(live0);
    spec(scaled)['replicas'] = 5;
    updateManagedFields(live0, scaled, {
      manager: 'kubectl',
      operation: 'Update',
      subresource: 'scale',
      schema: deploymentSchema,
      apiVersion: 'apps/v1',
      now: T1,
    });
    assert.deepEqual(entryOf(scaled, 'kubectl', 'Update'), {
      manager: 'kubectl',
      operation: 'Update',
      apiVersion: 'apps/v1',
      time: T1,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      subresource: 'scale',
    });
    assert.equal((entryOf(scaled, 'kubectl')?.fieldsV1 as any)['f:spec']['f:replicas'], undefined, 'the applier lost replicas');
    const live1 = stored(scaled, '2');
    assert.throws(() => apply(live1, deployment({ replicas: 2, template: podTemplate([web()]) }), 'kubectl', { now: T2 }), {
      message: 'Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas',
    });
    const agreed = apply(live1, deployment({ replicas: 5, template: podTemplate([web()]) }), 'kubectl', { now: T2 });
    assert.ok((entryOf(agreed, 'kubectl')?.fieldsV1 as any)['f:spec']['f:replicas']);
    assert.ok(entryOf(agreed, 'kubectl', 'Update'), 'the scale entry keeps its share');
  });

  it('never tracks status on the main resource, and tracks only status through /status', () => {
    const config = deployment({ replicas: 1 });
    config['status'] = { replicas: 9 };
    const created = apply(undefined, config, 'kubectl');
    assert.equal(created['status'], undefined, 'status is not applied through the main resource');
    assert.equal((entryOf(created, 'kubectl')?.fieldsV1 as any)['f:status'], undefined);
    const statusConfig = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 7 }, status: { replicas: 1 } };
    const withStatus = apply(stored(created), statusConfig, 'controller', { subresource: 'status' });
    assert.equal(spec(withStatus)['replicas'], 1, 'spec is not applied through /status');
    assert.deepEqual((withStatus['status'] as any).replicas, 1);
    const entry = withStatus.metadata.managedFields?.find((e) => e.manager === 'controller');
    assert.deepEqual(entry?.fieldsV1, { 'f:status': { 'f:replicas': {} } });
    assert.equal(entry?.subresource, 'status');
  });

  it('attributes the fields of an unmanaged object to before-first-apply', () => {
    const live = stored(deployment({ replicas: 1 }));
    assert.throws(() => apply(live, deployment({ replicas: 2 }), 'kubectl'), {
      message: 'Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas',
    });
    const result = apply(live, deployment({ replicas: 1, paused: true }), 'kubectl');
    assert.deepEqual(
      result.metadata.managedFields?.map((e) => e.manager),
      ['kubectl', 'before-first-apply'],
    );
  });

  it('keeps the time of an apply that changes nothing', () => {
    const config = deployment({ replicas: 1 });
    const live = stored(apply(undefined, config, 'kubectl', { now: T0 }));
    const again = apply(live, config, 'kubectl', { now: T2 });
    assert.deepEqual(again.metadata.managedFields, live.metadata.managedFields);
  });

  it('rejects list items without their keys, and managedFields in the configuration', () => {
    const noName = deployment({ template: podTemplate([{ image: 'x' } as never]) });
    assert.throws(
      () => apply(undefined, noName, 'kubectl'),
      (error: unknown) => {
        assert.ok(error instanceof ApplyInvalidError);
        assert.equal(error.code, 400);
        assert.match(error.message, /\.spec\.template\.spec\.containers: element 0: associative list with keys has an element that omits key field "name"/);
        return true;
      },
    );
    const dup = deployment({ template: podTemplate([web(), web()]) });
    assert.throws(() => apply(undefined, dup, 'kubectl'), /duplicate entries for key \[name="web"\]/);
    const withManaged = deployment({});
    withManaged.metadata.managedFields = [{ manager: 'x' }];
    assert.throws(() => apply(undefined, withManaged, 'kubectl'), /metadata.managedFields must be nil/);
  });
});
