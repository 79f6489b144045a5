import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { configMapPrinter, leasePrinter, namespacePrinter, secretPrinter, serviceAccountPrinter } from './basic-kinds.js';
import { ago, cells, columnNames, object } from '../../../test/support/api/printer-fixtures.js';

describe('namespace printer', () => {
  it('prints NAME STATUS AGE', () => {
    assert.deepEqual(columnNames(namespacePrinter).normal, ['Name', 'Status', 'Age']);
    const ns = object('v1', 'Namespace', { name: 'kube-system', creationTimestamp: ago('120d') }, { status: { phase: 'Active' } });
    assert.deepEqual(cells(namespacePrinter, ns), { Name: 'kube-system', Status: 'Active', Age: '120d' });
    const terminating = object('v1', 'Namespace', { name: 'old' }, { status: { phase: 'Terminating' } });
    assert.equal(cells(namespacePrinter, terminating)['Status'], 'Terminating');
  });
});

describe('configmap printer', () => {
  it('counts data and binaryData entries', () => {
    assert.deepEqual(columnNames(configMapPrinter).normal, ['Name', 'Data', 'Age']);
    const cm = object('v1', 'ConfigMap', { name: 'settings' }, { data: { a: '1', b: '2' }, binaryData: { logo: 'iVBO' } });
    assert.deepEqual(cells(configMapPrinter, cm), { Name: 'settings', Data: 3, Age: '10m' });
    assert.equal(cells(configMapPrinter, object('v1', 'ConfigMap', { name: 'empty' }))['Data'], 0);
  });
});

describe('secret printer', () => {
  it('prints NAME TYPE DATA AGE', () => {
    assert.deepEqual(columnNames(secretPrinter).normal, ['Name', 'Type', 'Data', 'Age']);
    const secret = object('v1', 'Secret', { name: 'tls' }, { type: 'kubernetes.io/tls', data: { 'tls.crt': 'LS0t', 'tls.key': 'LS0t' } });
    assert.deepEqual(cells(secretPrinter, secret), { Name: 'tls', Type: 'kubernetes.io/tls', Data: 2, Age: '10m' });
  });
});

describe('service account printer', () => {
  it('counts referenced secrets', () => {
    assert.deepEqual(columnNames(serviceAccountPrinter).normal, ['Name', 'Secrets', 'Age']);
    const sa = object('v1', 'ServiceAccount', { name: 'default' });
    assert.deepEqual(cells(serviceAccountPrinter, sa), { Name: 'default', Secrets: 0, Age: '10m' });
    const withSecret = object('v1', 'ServiceAccount', { name: 'builder' }, { secrets: [{ name: 'builder-token' }] });
    assert.equal(cells(serviceAccountPrinter, withSecret)['Secrets'], 1);
  });
});

describe('lease printer', () => {
  it('prints the holder', () => {
    assert.deepEqual(columnNames(leasePrinter).normal, ['Name', 'Holder', 'Age']);
    const lease = object(
      'coordination.k8s.io/v1',
      'Lease',
      { name: 'drover-scheduler', namespace: 'kube-system', creationTimestamp: ago('5h') },
      {
        spec: { holderIdentity: 'server-1_8f2c', leaseDurationSeconds: 15 },
      },
    );
    assert.deepEqual(cells(leasePrinter, lease), { Name: 'drover-scheduler', Holder: 'server-1_8f2c', Age: '5h' });
    assert.equal(cells(leasePrinter, object('coordination.k8s.io/v1', 'Lease', { name: 'free' }, { spec: {} }))['Holder'], '');
  });
});
