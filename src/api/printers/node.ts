// `kubectl get nodes`: NAME STATUS ROLES AGE VERSION | wide: INTERNAL-IP EXTERNAL-IP OS-IMAGE
// KERNEL-VERSION CONTAINER-RUNTIME.
import type { KubeObject } from '../meta.js';
import type { TablePrinter } from '../resource.js';
import { AGE_COLUMN, NAME_COLUMN, column, wide } from './columns.js';
import { age } from './format.js';
import { at, listAt, stringAt } from './read.js';

const ROLE_LABEL_PREFIX = 'node-role.kubernetes.io/';
const LEGACY_ROLE_LABEL = 'kubernetes.io/role';

/** `Ready`, `NotReady` or `Unknown` (no Ready condition), plus `,SchedulingDisabled` when cordoned. */
export function nodeStatus(node: KubeObject): string {
  let ready: unknown;
  for (const condition of listAt(node, 'status', 'conditions')) {
    if (stringAt(condition, 'type') === 'Ready') ready = condition; // the last one wins, as in Kubernetes
  }
  const status = [ready === undefined ? 'Unknown' : stringAt(ready, 'status') === 'True' ? 'Ready' : 'NotReady'];
  if (at(node, 'spec', 'unschedulable') === true) status.push('SchedulingDisabled');
  return status.join(',');
}

/** Roles from `node-role.kubernetes.io/<role>` keys and the legacy `kubernetes.io/role` value. */
export function nodeRoles(node: KubeObject): string {
  const roles = new Set<string>();
  const labels = node.metadata.labels ?? {};
  for (const [key, value] of Object.entries(labels)) {
    if (key.startsWith(ROLE_LABEL_PREFIX)) {
      const role = key.slice(ROLE_LABEL_PREFIX.length);
      if (role !== '') roles.add(role);
    } else if (key === LEGACY_ROLE_LABEL && value !== '') {
      roles.add(value);
    }
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

function address(node: KubeObject, type: string): string {
  const found = listAt(node, 'status', 'addresses').find((a) => stringAt(a, 'type') === type);
  return found === undefined ? '<none>' : stringAt(found, 'address');
}

function nodeInfo(node: KubeObject, field: string): string {
  return stringAt(node, 'status', 'nodeInfo', field) || '<unknown>';
}

export const nodePrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'The status of the node'),
    column('Roles', 'string', 'The roles of the node'),
    AGE_COLUMN,
    column('Version', 'string', 'Kubelet Version reported by the node.'),
    wide('Internal-IP', 'string', 'The first InternalIP address of the node.'),
    wide('External-IP', 'string', 'The first ExternalIP address of the node.'),
    wide('OS-Image', 'string', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 12 (bookworm)).'),
    wide('Kernel-Version', 'string', "Kernel Version reported by the node from 'uname -r'."),
    wide('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node through runtime remote API.'),
  ],
  row(node, now) {
    return [
      node.metadata.name ?? '',
      nodeStatus(node),
      nodeRoles(node),
      age(node, now),
      stringAt(node, 'status', 'nodeInfo', 'kubeletVersion'),
      address(node, 'InternalIP'),
      address(node, 'ExternalIP'),
      nodeInfo(node, 'osImage'),
      nodeInfo(node, 'kernelVersion'),
      nodeInfo(node, 'containerRuntimeVersion'),
    ];
  },
};
