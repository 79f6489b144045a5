// ResourceDefinitions of core/v1 LimitRange and ResourceQuota. Their admission lives in
// src/apiserver/admission/ (limit-ranger.ts, resource-quota.ts); the quota's status is kept by
// src/controllers/resource-quota.ts.
import type { ResourceDefinition } from '../resource.js';
import { LimitRangeSchema, ResourceQuotaSchema } from '../schemas/quota.js';
import { applyLimitRangeDefaults } from '../defaults/quota-defaults.js';
import { validateLimitRange, validateResourceQuota } from '../validation/quota-validation.js';
import { limitRangePrinter, resourceQuotaPrinter } from '../printers/quota.js';
import { ALL_VERBS, noDefaults } from './helpers.js';

const limitRanges: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'LimitRange',
  listKind: 'LimitRangeList',
  plural: 'limitranges',
  singular: 'limitrange',
  namespaced: true,
  shortNames: ['limits'],
  categories: [],
  verbs: ALL_VERBS,
  subresources: {},
  schema: LimitRangeSchema,
  applyDefaults: applyLimitRangeDefaults,
  validate: validateLimitRange,
  table: limitRangePrinter,
  fieldSelectors: {},
};

const resourceQuotas: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'ResourceQuota',
  listKind: 'ResourceQuotaList',
  plural: 'resourcequotas',
  singular: 'resourcequota',
  namespaced: true,
  shortNames: ['quota'],
  categories: [],
  verbs: ALL_VERBS,
  subresources: { status: true },
  schema: ResourceQuotaSchema,
  applyDefaults: noDefaults,
  validate: validateResourceQuota,
  table: resourceQuotaPrinter,
  fieldSelectors: {},
};

export const quotaDefinitions: readonly ResourceDefinition[] = [limitRanges, resourceQuotas];
