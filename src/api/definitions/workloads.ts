// ResourceDefinitions of apps/v1, batch/v1 and coordination.k8s.io/v1 kinds.
import type { ResourceDefinition } from '../resource.js';
import { printerFor } from '../printers/index.js';
import { DaemonSetSchema, DeploymentSchema, ReplicaSetSchema } from '../schemas/apps.js';
import { JobSchema } from '../schemas/batch.js';
import { CronJobSchema } from '../schemas/cronjob.js';
import { ControllerRevisionSchema, StatefulSetSchema } from '../schemas/statefulset.js';
import { applyStatefulSetDefaults } from '../defaults/statefulset-defaults.js';
import { validateControllerRevision, validateStatefulSet } from '../validation/statefulset-validation.js';
import { LeaseSchema } from '../schemas/coordination.js';
import { applyDaemonSetDefaults, applyDeploymentDefaults, applyJobDefaults, applyReplicaSetDefaults } from '../defaults/workload-defaults.js';
import { validateDaemonSet, validateDeployment, validateReplicaSet } from '../validation/workload-validation.js';
import { validateJob } from '../validation/job-validation.js';
import { validateCronJob } from '../validation/cronjob-validation.js';
import { applyCronJobDefaults } from '../defaults/cronjob-defaults.js';
import { validateLease } from '../validation/core-validation.js';
import { ALL_VERBS, noDefaults } from './helpers.js';
import { obj } from '../validation/util.js';

const deployments: ResourceDefinition = {
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  listKind: 'DeploymentList',
  plural: 'deployments',
  singular: 'deployment',
  namespaced: true,
  shortNames: ['deploy'],
  categories: ['all'],
  verbs: ALL_VERBS,
  subresources: { status: true, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' } },
  schema: DeploymentSchema,
  applyDefaults: applyDeploymentDefaults,
  validate: validateDeployment,
  table: printerFor('Deployment'),
  fieldSelectors: {},
};

const replicaSets: ResourceDefinition = {
  group: 'apps',
  version: 'v1',
  kind: 'ReplicaSet',
  listKind: 'ReplicaSetList',
  plural: 'replicasets',
  singular: 'replicaset',
  namespaced: true,
  shortNames: ['rs'],
  categories: ['all'],
  verbs: ALL_VERBS,
  subresources: { status: true, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' } },
  schema: ReplicaSetSchema,
  applyDefaults: applyReplicaSetDefaults,
  validate: validateReplicaSet,
  table: printerFor('ReplicaSet'),
  fieldSelectors: { 'status.replicas': (rs) => String(obj(rs['status'])['replicas'] ?? 0) },
};

const daemonSets: ResourceDefinition = {
  group: 'apps',
  version: 'v1',
  kind: 'DaemonSet',
  listKind: 'DaemonSetList',
  plural: 'daemonsets',
  singular: 'daemonset',
  namespaced: true,
  shortNames: ['ds'],
  categories: ['all'],
  verbs: ALL_VERBS,
  subresources: { status: true },
  schema: DaemonSetSchema,
  applyDefaults: applyDaemonSetDefaults,
  validate: validateDaemonSet,
  table: printerFor('DaemonSet'),
  fieldSelectors: {},
};

const jobs: ResourceDefinition = {
  group: 'batch',
  version: 'v1',
  kind: 'Job',
  listKind: 'JobList',
  plural: 'jobs',
  singular: 'job',
  namespaced: true,
  shortNames: [],
  categories: ['all'],
  verbs: ALL_VERBS,
  subresources: { status: true },
  schema: JobSchema,
  applyDefaults: applyJobDefaults,
  validate: validateJob,
  table: printerFor('Job'),
  fieldSelectors: { 'status.successful': (job) => String(obj(job['status'])['succeeded'] ?? 0) },
};

const cronJobs: ResourceDefinition = {
  group: 'batch',
  version: 'v1',
  kind: 'CronJob',
  listKind: 'CronJobList',
  plural: 'cronjobs',
  singular: 'cronjob',
  namespaced: true,
  shortNames: ['cj'],
  categories: ['all'],
  verbs: ALL_VERBS,
  subresources: { status: true },
  schema: CronJobSchema,
  applyDefaults: applyCronJobDefaults,
  validate: validateCronJob,
  table: printerFor('CronJob'),
  fieldSelectors: {},
};

const statefulSets: ResourceDefinition = {
  group: 'apps',
  version: 'v1',
  kind: 'StatefulSet',
  listKind: 'StatefulSetList',
  plural: 'statefulsets',
  singular: 'statefulset',
  namespaced: true,
  shortNames: ['sts'],
  categories: ['all'],
  verbs: ALL_VERBS,
  subresources: { status: true, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' } },
  schema: StatefulSetSchema,
  applyDefaults: applyStatefulSetDefaults,
  validate: validateStatefulSet,
  table: printerFor('StatefulSet'),
  fieldSelectors: {},
};

const controllerRevisions: ResourceDefinition = {
  group: 'apps',
  version: 'v1',
  kind: 'ControllerRevision',
  listKind: 'ControllerRevisionList',
  plural: 'controllerrevisions',
  singular: 'controllerrevision',
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: ALL_VERBS,
  subresources: {},
  schema: ControllerRevisionSchema,
  applyDefaults: noDefaults,
  validate: validateControllerRevision,
  table: printerFor('ControllerRevision'),
  fieldSelectors: {},
};

const leases: ResourceDefinition = {
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  listKind: 'LeaseList',
  plural: 'leases',
  singular: 'lease',
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: ALL_VERBS,
  subresources: {},
  schema: LeaseSchema,
  applyDefaults: noDefaults,
  validate: validateLease,
  table: printerFor('Lease'),
  fieldSelectors: {},
};

export const workloadDefinitions: readonly ResourceDefinition[] = [
  deployments,
  replicaSets,
  daemonSets,
  statefulSets,
  controllerRevisions,
  jobs,
  cronJobs,
  leases,
];
