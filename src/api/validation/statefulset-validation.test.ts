import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findByKind } from '../registry.js';
import type { KubeObject } from '../meta.js';
import { validateObject } from './index.js';

const template = {
  metadata: { labels: { app: 'db' } },
  spec: { containers: [{ name: 'main', image: 'busybox', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] },
};
const claim = { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };

function statefulSet(spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'default' },
    spec: {
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      template: structuredClone(template),
      volumeClaimTemplates: [structuredClone(claim)],
      ...spec,
    },
  };
}

/** Defaults then validates, as the server does; "field: message" lines. */
function check(group: string, kind: string, object: KubeObject, old?: KubeObject): string[] {
  const def = findByKind(group, 'v1', kind);
  assert.ok(def);
  def.applyDefaults(object);
  if (old) def.applyDefaults(old);
  return validateObject(def, object, old).map((e) => `${e.field}: ${e.message}`);
}

describe('StatefulSet defaults and validation', () => {
  it('defaults as Kubernetes does and accepts mounts of claim templates', () => {
    const object = statefulSet({});
    assert.deepEqual(check('apps', 'StatefulSet', object), []);
    const spec = object['spec'] as Record<string, unknown>;
    assert.equal(spec['replicas'], 1);
    assert.equal(spec['podManagementPolicy'], 'OrderedReady');
    assert.deepEqual(spec['updateStrategy'], { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    assert.deepEqual(spec['persistentVolumeClaimRetentionPolicy'], { whenDeleted: 'Retain', whenScaled: 'Retain' });
    assert.equal(spec['revisionHistoryLimit'], 10);
    assert.deepEqual(object.metadata.labels, { app: 'db' });
    const [defaultedClaim] = spec['volumeClaimTemplates'] as Array<Record<string, Record<string, unknown>>>;
    assert.equal(defaultedClaim!['spec']!['volumeMode'], 'Filesystem');
    assert.deepEqual(defaultedClaim!['status'], { phase: 'Pending' });
  });

  it('rejects a selector that misses the template, bad policies and bad claim templates', () => {
    const errors = check(
      'apps',
      'StatefulSet',
      statefulSet({
        selector: { matchLabels: { app: 'other' } },
        podManagementPolicy: 'Random',
        updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } },
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep' },
        ordinals: { start: -1 },
        volumeClaimTemplates: [{ metadata: {}, spec: {} }],
      }),
    );
    assert.ok(
      errors.includes('spec.template.metadata.labels: Invalid value: map[string]string{"app":"db"}: `selector` does not match template `labels`'),
      errors.join('\n'),
    );
    assert.ok(errors.includes('spec.podManagementPolicy: Unsupported value: "Random": supported values: "OrderedReady", "Parallel"'), errors.join('\n'));
    assert.ok(
      errors.some((e) => e.startsWith('spec.updateStrategy.rollingUpdate: Invalid value') && e.endsWith("only allowed for updateStrategy 'RollingUpdate'")),
      errors.join('\n'),
    );
    assert.ok(errors.includes('spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"'));
    assert.ok(errors.includes('spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0'));
    assert.ok(errors.includes('spec.volumeClaimTemplates[0].spec.accessModes: Required value: at least 1 access mode is required'));
    assert.ok(errors.includes('spec.volumeClaimTemplates[0].spec.resources[storage]: Required value'));
    // The mount of "data" no longer has a claim template behind it.
    assert.ok(
      errors.some((e) => e.startsWith('spec.template.spec.containers[0].volumeMounts[0].name: Not found')),
      errors.join('\n'),
    );
  });

  it('lets an update change replicas, template, strategy and retention, and nothing else', () => {
    const old = statefulSet({});
    const scaled = statefulSet({
      replicas: 5,
      updateStrategy: { type: 'OnDelete' },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' },
      minReadySeconds: 3,
    });
    assert.deepEqual(check('apps', 'StatefulSet', scaled, old), []);
    const renamed = statefulSet({ serviceName: 'other' });
    assert.deepEqual(check('apps', 'StatefulSet', renamed, statefulSet({})), [
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ]);
  });
});

describe('ControllerRevision validation', () => {
  const revision = (data: unknown, number = 1): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: { name: 'db-abc', namespace: 'default' },
    data,
    revision: number,
  });

  it('needs data and a non-negative revision; data never changes', () => {
    assert.deepEqual(check('apps', 'ControllerRevision', revision({ spec: {} })), []);
    assert.deepEqual(check('apps', 'ControllerRevision', revision(undefined, -1)), [
      'data: Required value: data is mandatory',
      'revision: Invalid value: -1: must be greater than or equal to 0',
    ]);
    assert.deepEqual(check('apps', 'ControllerRevision', revision({ spec: { a: 1 } }, 3), revision({ spec: {} })), [
      'data: Invalid value: {"spec":{"a":1}}: field is immutable',
    ]);
    assert.deepEqual(check('apps', 'ControllerRevision', revision({ spec: {} }, 4), revision({ spec: {} })), [], 'the revision number may change');
  });
});

describe('ReplicationController defaults and validation', () => {
  const rc = (spec: Record<string, unknown>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: { name: 'old', namespace: 'default' },
    spec: { template: { metadata: { labels: { app: 'old' } }, spec: { containers: [{ name: 'main', image: 'busybox' }] } }, ...spec },
  });

  it('takes its selector and labels from the template, one replica by default', () => {
    const object = rc({});
    assert.deepEqual(check('', 'ReplicationController', object), []);
    assert.deepEqual((object['spec'] as Record<string, unknown>)['selector'], { app: 'old' });
    assert.equal((object['spec'] as Record<string, unknown>)['replicas'], 1);
    assert.deepEqual(object.metadata.labels, { app: 'old' });
  });

  it('rejects a selector the template does not satisfy, and a template that stops', () => {
    const object = rc({ selector: { app: 'new' }, replicas: -1 });
    (object['spec'] as { template: { spec: Record<string, unknown> } }).template.spec['restartPolicy'] = 'Never';
    assert.deepEqual(check('', 'ReplicationController', object), [
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"old"}: `selector` does not match template `labels`',
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    ]);
  });
});
