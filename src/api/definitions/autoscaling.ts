// ResourceDefinitions of autoscaling: HorizontalPodAutoscaler in v2 (stored) and v1 (served by
// conversion, for kubectl autoscale and older clients). v2 is listed first: discovery's
// preferred version.
import type { ResourceDefinition } from '../resource.js';
import { printerFor } from '../printers/index.js';
import { HorizontalPodAutoscalerSchema, HorizontalPodAutoscalerV1Schema } from '../schemas/horizontal-pod-autoscaler.js';
import { applyHpaDefaults } from '../defaults/hpa-defaults.js';
import { validateHpa } from '../validation/hpa-validation.js';
import { hpaV1ToV2, hpaV2ToV1 } from '../autoscaling/hpa-conversion.js';
import { ALL_VERBS } from './helpers.js';

const hpaV2: ResourceDefinition = {
  group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler', listKind: 'HorizontalPodAutoscalerList',
  plural: 'horizontalpodautoscalers', singular: 'horizontalpodautoscaler', namespaced: true,
  shortNames: ['hpa'], categories: ['all'], verbs: ALL_VERBS, subresources: { status: true },
  schema: HorizontalPodAutoscalerSchema, applyDefaults: applyHpaDefaults, validate: validateHpa, table: printerFor('HorizontalPodAutoscaler'),
  fieldSelectors: {},
};

const hpaV1: ResourceDefinition = {
  ...hpaV2, version: 'v1', categories: [], schema: HorizontalPodAutoscalerV1Schema, verbs: ['create', 'delete', 'get', 'list', 'patch', 'update'], subresources: {},
  servedBy: { stored: hpaV2, toStored: hpaV1ToV2, fromStored: hpaV2ToV1 },
};

export const autoscalingDefinitions: readonly ResourceDefinition[] = [hpaV2, hpaV1];
