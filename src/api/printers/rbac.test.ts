import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { roleBindingPrinter, rolePrinter } from './rbac.js';
import { ago, cells, columnNames, object } from '../../../test/support/api/printer-fixtures.js';

describe('rbac printers', () => {
  it('prints roles as NAME CREATED AT, in UTC RFC 3339', () => {
    assert.deepEqual(columnNames(rolePrinter).normal, ['Name', 'Created At']);
    const role = object('rbac.authorization.k8s.io/v1', 'ClusterRole', { name: 'view', creationTimestamp: '2025-02-01T08:00:00Z' });
    assert.deepEqual(cells(rolePrinter, role), { Name: 'view', 'Created At': '2025-02-01T08:00:00Z' });
  });

  it('prints bindings as NAME ROLE AGE, and their subjects with -o wide', () => {
    assert.deepEqual(columnNames(roleBindingPrinter), { normal: ['Name', 'Role', 'Age'], wide: ['Users', 'Groups', 'ServiceAccounts'] });
    const binding = object(
      'rbac.authorization.k8s.io/v1',
      'RoleBinding',
      { name: 'dev-view', namespace: 'dev', creationTimestamp: ago('5h') },
      {
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
        subjects: [
          { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
          { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' },
          { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' },
          { kind: 'ServiceAccount', name: 'ci', namespace: 'dev' },
        ],
      },
    );
    assert.deepEqual(cells(roleBindingPrinter, binding), {
      Name: 'dev-view',
      Role: 'ClusterRole/view',
      Age: '5h',
      Users: 'alice, bob',
      Groups: 'devs',
      ServiceAccounts: 'dev/ci',
    });
  });
});
