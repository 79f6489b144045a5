import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { persistentVolumeClaimPrinter, persistentVolumePrinter, storageClassPrinter } from './storage.js';
import { ago, NOW, object } from '../../../test/support/api/printer-fixtures.js';

describe('storage printers', () => {
  test('PersistentVolume: kubectl get pv columns and cells', () => {
    const pv = object(
      'v1',
      'PersistentVolume',
      { name: 'pv1', creationTimestamp: ago('3m') },
      {
        spec: {
          capacity: { storage: '1Gi' },
          accessModes: ['ReadWriteMany', 'ReadWriteOnce'],
          persistentVolumeReclaimPolicy: 'Retain',
          storageClassName: 'manual',
          claimRef: { namespace: 'dev', name: 'data' },
          volumeMode: 'Filesystem',
        },
        status: { phase: 'Bound' },
      },
    );
    assert.deepEqual(
      persistentVolumePrinter.columns.filter((c) => c.priority === 0).map((c) => c.name),
      ['Name', 'Capacity', 'Access Modes', 'Reclaim Policy', 'Status', 'Claim', 'StorageClass', 'VolumeAttributesClass', 'Reason', 'Age'],
    );
    assert.deepEqual(persistentVolumePrinter.row(pv, NOW), [
      'pv1',
      '1Gi',
      'RWO,RWX',
      'Retain',
      'Bound',
      'dev/data',
      'manual',
      '<unset>',
      '',
      '3m',
      'Filesystem',
    ]);
  });

  test('PersistentVolume being deleted reads Terminating; no claim reads empty', () => {
    const pv = object(
      'v1',
      'PersistentVolume',
      { name: 'pv2', creationTimestamp: ago('1h'), deletionTimestamp: ago('1s') },
      {
        spec: { capacity: { storage: '500M' }, accessModes: ['ReadWriteOncePod'] },
        status: { phase: 'Released' },
      },
    );
    assert.deepEqual(persistentVolumePrinter.row(pv, NOW).slice(1, 7), ['500M', 'RWOP', '', 'Terminating', '', '']);
  });

  test('PersistentVolumeClaim: capacity and modes only once bound', () => {
    const pending = object(
      'v1',
      'PersistentVolumeClaim',
      { name: 'data', namespace: 'dev', creationTimestamp: ago('10s') },
      {
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'local-path', volumeMode: 'Filesystem' },
        status: { phase: 'Pending' },
      },
    );
    assert.deepEqual(
      persistentVolumeClaimPrinter.columns.map((c) => c.name),
      ['Name', 'Status', 'Volume', 'Capacity', 'Access Modes', 'StorageClass', 'VolumeAttributesClass', 'Age', 'VolumeMode'],
    );
    assert.deepEqual(persistentVolumeClaimPrinter.row(pending, NOW), ['data', 'Pending', '', '', '', 'local-path', '<unset>', '10s', 'Filesystem']);
    const bound = {
      ...pending,
      spec: { ...(pending['spec'] as object), volumeName: 'pvc-1' },
      status: { phase: 'Bound', capacity: { storage: '2Gi' }, accessModes: ['ReadWriteOnce'] },
    };
    assert.deepEqual(persistentVolumeClaimPrinter.row(bound, NOW).slice(0, 6), ['data', 'Bound', 'pvc-1', '2Gi', 'RWO', 'local-path']);
  });

  test('StorageClass: the default is marked, unset fields print their defaults', () => {
    const sc = object(
      'storage.k8s.io/v1',
      'StorageClass',
      { name: 'local-path', creationTimestamp: ago('2d'), annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      {
        provisioner: 'rancher.io/local-path',
        volumeBindingMode: 'WaitForFirstConsumer',
      },
    );
    assert.deepEqual(
      storageClassPrinter.columns.map((c) => c.name),
      ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age'],
    );
    assert.deepEqual(storageClassPrinter.row(sc, NOW), ['local-path (default)', 'rancher.io/local-path', 'Delete', 'WaitForFirstConsumer', false, '2d']);
  });
});
