// ResourceDefinitions of policy/v1: PodDisruptionBudgets (the Eviction body is a pod subresource's).
import type { ResourceDefinition } from '../resource.js';
import { printerFor } from '../printers/index.js';
import { PodDisruptionBudgetSchema } from '../schemas/policy.js';
import { validatePodDisruptionBudget } from '../validation/pdb-validation.js';
import { ALL_VERBS, noDefaults } from './helpers.js';

const podDisruptionBudgets: ResourceDefinition = {
  group: 'policy',
  version: 'v1',
  kind: 'PodDisruptionBudget',
  listKind: 'PodDisruptionBudgetList',
  plural: 'poddisruptionbudgets',
  singular: 'poddisruptionbudget',
  namespaced: true,
  shortNames: ['pdb'],
  categories: [],
  verbs: ALL_VERBS,
  subresources: { status: true },
  // policy/v1 has no defaulter: an unset unhealthyPodEvictionPolicy reads as IfHealthyBudget.
  schema: PodDisruptionBudgetSchema,
  applyDefaults: noDefaults,
  validate: validatePodDisruptionBudget,
  table: printerFor('PodDisruptionBudget'),
  fieldSelectors: {},
};

export const policyDefinitions: readonly ResourceDefinition[] = [podDisruptionBudgets];
