// Printers for the RBAC kinds, as Kubernetes' printers.go has them: roles show when they were
// created (an absolute time, since roles are long-lived), bindings the role they grant and,
// with -o wide, to whom.
import type { KubeObject } from '../meta.js';
import type { TablePrinter } from '../resource.js';
import { AGE_COLUMN, NAME_COLUMN, column, wide } from './columns.js';
import { age } from './format.js';
import { listAt, stringAt } from './read.js';

/** metav1.Time printed as Go's RFC 3339 in UTC: whole seconds, 'Z'. */
function createdAt(object: KubeObject): string {
  const stamp = object.metadata.creationTimestamp;
  if (!stamp) return '';
  const time = new Date(stamp);
  return Number.isNaN(time.getTime()) ? '' : time.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const rolePrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Created At', 'date', 'CreationTimestamp is a timestamp representing the server time when this object was created.')],
  row: (role) => [role.metadata.name ?? '', createdAt(role)],
};

/** Users, groups and service accounts (namespace/name) of a binding, as rbac.SubjectsStrings. */
function subjectsOf(binding: KubeObject): { users: string[]; groups: string[]; serviceAccounts: string[] } {
  const out = { users: [] as string[], groups: [] as string[], serviceAccounts: [] as string[] };
  for (const subject of listAt(binding, 'subjects')) {
    const name = stringAt(subject, 'name');
    switch (stringAt(subject, 'kind')) {
      case 'User':
        out.users.push(name);
        break;
      case 'Group':
        out.groups.push(name);
        break;
      case 'ServiceAccount':
        out.serviceAccounts.push(`${stringAt(subject, 'namespace')}/${name}`);
        break;
      default:
        break;
    }
  }
  return out;
}

export const roleBindingPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Role', 'string', 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace.'),
    AGE_COLUMN,
    wide('Users', 'string', 'Users in the roleBinding'),
    wide('Groups', 'string', 'Groups in the roleBinding'),
    wide('ServiceAccounts', 'string', 'ServiceAccounts in the roleBinding'),
  ],
  row: (binding, now) => {
    const { users, groups, serviceAccounts } = subjectsOf(binding);
    return [
      binding.metadata.name ?? '',
      `${stringAt(binding, 'roleRef', 'kind')}/${stringAt(binding, 'roleRef', 'name')}`,
      age(binding, now),
      users.join(', '),
      groups.join(', '),
      serviceAccounts.join(', '),
    ];
  },
};
