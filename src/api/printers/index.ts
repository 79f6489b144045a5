// Table printers for `kubectl get`: the columns and cells the API server sends as a
// meta.k8s.io/v1 Table, matching Kubernetes' server-side printers. Rows always carry every
// column; kubectl hides priority-1 columns unless asked for `-o wide`.
import type { TablePrinter } from '../resource.js';
import { configMapPrinter, leasePrinter, namespacePrinter, secretPrinter, serviceAccountPrinter } from './basic-kinds.js';
import { AGE_COLUMN, NAME_COLUMN } from './columns.js';
import { csrPrinter } from './certificates.js';
import { cronJobPrinter } from './cronjob.js';
import { consistencyReportPrinter } from './consistency-report.js';
import { endpointSlicePrinter } from './endpointslice.js';
import { eventPrinter } from './event.js';
import { hpaPrinter } from './horizontal-pod-autoscaler.js';
import { age } from './format.js';
import { nodePrinter } from './node.js';
import { podPrinter } from './pod.js';
import { podDisruptionBudgetPrinter } from './pod-disruption-budget.js';
import { priorityClassPrinter } from './priority-class.js';
import { roleBindingPrinter, rolePrinter } from './rbac.js';
import { controllerRevisionPrinter, replicationControllerPrinter, statefulSetPrinter } from './statefulset.js';
import { endpointsPrinter, servicePrinter } from './service.js';
import { transactionPrinter } from './transaction.js';
import { podGroupPrinter, trainingJobPrinter } from './training.js';
import { daemonSetPrinter, deploymentPrinter, jobPrinter, replicaSetPrinter } from './workloads.js';
import { customResourceDefinitionPrinter } from './custom-resource-definition.js';

export { humanDuration, since } from './format.js';

/** NAME and AGE, for kinds without a printer of their own. */
export const defaultPrinter: TablePrinter = {
  columns: [NAME_COLUMN, AGE_COLUMN],
  row: (object, now) => [object.metadata.name ?? '', age(object, now)],
};

const printers: ReadonlyMap<string, TablePrinter> = new Map([
  ['Pod', podPrinter],
  ['Service', servicePrinter],
  ['Endpoints', endpointsPrinter],
  ['EndpointSlice', endpointSlicePrinter],
  ['Node', nodePrinter],
  ['Namespace', namespacePrinter],
  ['ConfigMap', configMapPrinter],
  ['Secret', secretPrinter],
  ['ServiceAccount', serviceAccountPrinter],
  ['Lease', leasePrinter],
  ['Event', eventPrinter],
  ['Deployment', deploymentPrinter],
  ['ReplicaSet', replicaSetPrinter],
  ['DaemonSet', daemonSetPrinter],
  ['Job', jobPrinter],
  ['CronJob', cronJobPrinter],
  ['StatefulSet', statefulSetPrinter],
  ['ControllerRevision', controllerRevisionPrinter],
  ['ReplicationController', replicationControllerPrinter],
  ['Transaction', transactionPrinter],
  ['ConsistencyReport', consistencyReportPrinter],
  ['PyTorchJob', trainingJobPrinter],
  ['TFJob', trainingJobPrinter],
  ['PodGroup', podGroupPrinter],
  ['Role', rolePrinter],
  ['ClusterRole', rolePrinter],
  ['RoleBinding', roleBindingPrinter],
  ['ClusterRoleBinding', roleBindingPrinter],
  ['CertificateSigningRequest', csrPrinter],
  ['PodDisruptionBudget', podDisruptionBudgetPrinter],
  ['PriorityClass', priorityClassPrinter],
  ['CustomResourceDefinition', customResourceDefinitionPrinter],
  ['HorizontalPodAutoscaler', hpaPrinter],
]);

/** The printer for a kind, e.g. printerFor('Pod'); unknown kinds get NAME + AGE. */
export function printerFor(kind: string): TablePrinter {
  return printers.get(kind) ?? defaultPrinter;
}
