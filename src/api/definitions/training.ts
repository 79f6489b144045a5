// ResourceDefinitions of the training-job kinds (kubeflow.org/v1 PyTorchJob, TFJob) and the
// gang they are scheduled as (scheduling.x-k8s.io/v1alpha1 PodGroup).
import type { ResourceDefinition } from '../resource.js';
import { applyPodGroupDefaults, applyTrainingJobDefaults } from '../defaults/training-defaults.js';
import { printerFor } from '../printers/index.js';
import { PodGroupSchema } from '../schemas/scheduling.js';
import { PyTorchJobSchema, TFJobSchema } from '../schemas/training.js';
import { validatePodGroup, validateTrainingJob } from '../validation/training-validation.js';
import { ALL_VERBS, field } from './helpers.js';

const pytorchJobs: ResourceDefinition = {
  group: 'kubeflow.org',
  version: 'v1',
  kind: 'PyTorchJob',
  listKind: 'PyTorchJobList',
  plural: 'pytorchjobs',
  singular: 'pytorchjob',
  namespaced: true,
  shortNames: [],
  categories: ['kubeflow'],
  verbs: ALL_VERBS,
  subresources: { status: true },
  schema: PyTorchJobSchema,
  applyDefaults: applyTrainingJobDefaults,
  validate: validateTrainingJob,
  table: printerFor('PyTorchJob'),
  fieldSelectors: {},
};

const tfJobs: ResourceDefinition = {
  group: 'kubeflow.org',
  version: 'v1',
  kind: 'TFJob',
  listKind: 'TFJobList',
  plural: 'tfjobs',
  singular: 'tfjob',
  namespaced: true,
  shortNames: [],
  categories: ['kubeflow'],
  verbs: ALL_VERBS,
  subresources: { status: true },
  schema: TFJobSchema,
  applyDefaults: applyTrainingJobDefaults,
  validate: validateTrainingJob,
  table: printerFor('TFJob'),
  fieldSelectors: {},
};

const podGroups: ResourceDefinition = {
  group: 'scheduling.x-k8s.io',
  version: 'v1alpha1',
  kind: 'PodGroup',
  listKind: 'PodGroupList',
  plural: 'podgroups',
  singular: 'podgroup',
  namespaced: true,
  shortNames: ['pg', 'pgs'],
  categories: [],
  verbs: ALL_VERBS,
  subresources: { status: true },
  schema: PodGroupSchema,
  applyDefaults: applyPodGroupDefaults,
  validate: validatePodGroup,
  table: printerFor('PodGroup'),
  fieldSelectors: { 'status.phase': field('status.phase') },
};

export const trainingDefinitions: readonly ResourceDefinition[] = [pytorchJobs, tfJobs, podGroups];
