import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KubeObject } from '../meta.js';
import { validatePersistentVolume, validatePersistentVolumeClaim, validateStorageClass } from './storage-validation.js';

const messages = (errors: { field: string; message: string }[]) => errors.map((e) => `${e.field}: ${e.message}`);
const pv = (spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv' }, spec }) as KubeObject;
const pvc = (spec: Record<string, unknown>, phase = 'Pending') =>
  ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c', namespace: 'd' }, spec, status: { phase } }) as KubeObject;
const sc = (fields: Record<string, unknown>) =>
  ({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 's' }, volumeBindingMode: 'Immediate', ...fields }) as KubeObject;
const claimSpec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } };

describe('PersistentVolume validation', () => {
  test('accepts a hostPath volume and a local one pinned to a node', () => {
    assert.deepEqual(validatePersistentVolume(pv({ capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } })), []);
    const nodeAffinity = { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['n1'] }] }] } };
    assert.deepEqual(
      validatePersistentVolume(pv({ capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], local: { path: '/mnt/disk' }, nodeAffinity })),
      [],
    );
  });

  test('needs access modes, a storage capacity and exactly one source; local needs node affinity', () => {
    assert.deepEqual(messages(validatePersistentVolume(pv({}))), [
      'spec.accessModes: Required value: at least 1 access mode is required',
      'spec.capacity: Required value',
      'spec: Required value: must specify a volume type',
    ]);
    assert.deepEqual(
      messages(
        validatePersistentVolume(
          pv({ capacity: { storage: '1Gi', cpu: '1' }, accessModes: ['ReadWriteSometimes'], hostPath: { path: '/a' }, nfs: { server: 's', path: '/p' } }),
        ),
      ),
      [
        'spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
        'spec.capacity: Unsupported value: "cpu": supported values: "storage"',
        'spec.nfs: Forbidden: may not specify more than 1 volume type',
      ],
    );
    assert.deepEqual(messages(validatePersistentVolume(pv({ capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], local: { path: '/x/../y' } }))), [
      'spec.local.path: Invalid value: "/x/../y": must not contain \'..\'',
      'spec.nodeAffinity: Required value: Local volume requires node affinity',
    ]);
  });

  test('the source is immutable, capacity may change', () => {
    const old = pv({ capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } });
    assert.deepEqual(validatePersistentVolume(pv({ capacity: { storage: '2Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } }), old), []);
    assert.deepEqual(
      messages(validatePersistentVolume(pv({ capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/other' } }), old)),
      ['spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation'],
    );
  });
});

describe('PersistentVolumeClaim validation', () => {
  test('needs access modes and a positive storage request', () => {
    assert.deepEqual(validatePersistentVolumeClaim(pvc(claimSpec)), []);
    assert.deepEqual(messages(validatePersistentVolumeClaim(pvc({}))), [
      'spec.accessModes: Required value: at least 1 access mode is required',
      'spec.resources[storage]: Required value',
    ]);
    assert.deepEqual(messages(validatePersistentVolumeClaim(pvc({ ...claimSpec, resources: { requests: { storage: '0' } }, storageClassName: 'Bad_Class' }))), [
      'spec.resources[storage]: Invalid value: "0": must be greater than zero',
      "spec.storageClassName: Invalid value: \"Bad_Class\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
  });

  test("the spec is immutable except a bound claim's growing request, and volumeName while unset", () => {
    const old = pvc(claimSpec);
    assert.deepEqual(validatePersistentVolumeClaim(pvc({ ...claimSpec, volumeName: 'pv1' }), old), []);
    const immutable = 'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';
    assert.deepEqual(messages(validatePersistentVolumeClaim(pvc({ ...claimSpec, accessModes: ['ReadWriteMany'] }), old)), [immutable]);
    const grown = { ...claimSpec, volumeName: 'pv1', resources: { requests: { storage: '2Gi' } } };
    assert.deepEqual(messages(validatePersistentVolumeClaim(pvc(grown), old)), [immutable]);
    const boundOld = pvc({ ...claimSpec, volumeName: 'pv1' }, 'Bound');
    assert.deepEqual(validatePersistentVolumeClaim(pvc(grown, 'Bound'), boundOld), []);
    assert.deepEqual(messages(validatePersistentVolumeClaim(pvc({ ...claimSpec, volumeName: 'pv2' }, 'Bound'), boundOld)), [immutable]);
    assert.deepEqual(messages(validatePersistentVolumeClaim(pvc({ ...grown, resources: { requests: { storage: '512Mi' } } }, 'Bound'), boundOld)), [
      'spec.resources.requests.storage: Forbidden: field can not be less than previous value',
    ]);
  });
});

describe('StorageClass validation', () => {
  test('needs a provisioner; policies and modes from their lists', () => {
    assert.deepEqual(validateStorageClass(sc({ provisioner: 'rancher.io/local-path', reclaimPolicy: 'Delete' })), []);
    assert.deepEqual(messages(validateStorageClass(sc({ provisioner: '', reclaimPolicy: 'Recycle', volumeBindingMode: 'Later' }))), [
      'provisioner: Required value',
      'reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"',
      'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
    ]);
  });

  test('provisioner, parameters, reclaim policy and binding mode are frozen', () => {
    const old = sc({ provisioner: 'a.io/x', reclaimPolicy: 'Delete', parameters: { k: 'v' } });
    assert.deepEqual(validateStorageClass(sc({ provisioner: 'a.io/x', reclaimPolicy: 'Delete', parameters: { k: 'v' }, allowVolumeExpansion: true }), old), []);
    assert.deepEqual(
      messages(validateStorageClass(sc({ provisioner: 'b.io/x', reclaimPolicy: 'Retain', parameters: {}, volumeBindingMode: 'WaitForFirstConsumer' }), old)),
      [
        'parameters: Forbidden: updates to parameters are forbidden.',
        'provisioner: Forbidden: updates to provisioner are forbidden.',
        'reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.',
        'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
      ],
    );
  });
});
