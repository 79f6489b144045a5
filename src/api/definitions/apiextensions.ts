// ResourceDefinitions of apiextensions.k8s.io/v1: CustomResourceDefinitions (cluster-scoped).
// The resources they define are served by apiserver/crd/, which watches them.
import type { ResourceDefinition } from '../resource.js';
import { printerFor } from '../printers/index.js';
import { CustomResourceDefinitionSchema } from '../schemas/apiextensions.js';
import { applyCrdDefaults, validateCrd } from '../crd/crd-validation.js';
import { ALL_VERBS } from './helpers.js';

const customResourceDefinitions: ResourceDefinition = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  kind: 'CustomResourceDefinition',
  listKind: 'CustomResourceDefinitionList',
  plural: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  namespaced: false,
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  verbs: ALL_VERBS,
  subresources: { status: true },
  schema: CustomResourceDefinitionSchema,
  applyDefaults: applyCrdDefaults,
  validate: validateCrd,
  table: printerFor('CustomResourceDefinition'),
  fieldSelectors: {},
};

export const apiextensionsDefinitions: readonly ResourceDefinition[] = [customResourceDefinitions];
