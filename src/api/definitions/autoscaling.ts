// ResourceDefinitions of autoscaling: HorizontalPodAutoscaler in v2 (stored) and v1 (stored as
// v2 through its conversion, for kubectl autoscale and older clients; every verb, watch and
// status included). v2 is listed first: discovery's preferred version.
import { isObject, type KubeObject } from '../meta.js';
import type { ResourceDefinition } from '../resource.js';
import { printerFor } from '../printers/index.js';
import { HorizontalPodAutoscalerSchema, HorizontalPodAutoscalerV1Schema } from '../schemas/horizontal-pod-autoscaler.js';
import { applyHpaDefaults } from '../defaults/hpa-defaults.js';
import { validateHpa } from '../validation/hpa-validation.js';
import { hpaV1ToV2, hpaV2ToV1 } from '../autoscaling/hpa-conversion.js';
import { ensureObject, setDefault } from '../defaults/util.js';
import { ALL_VERBS } from './helpers.js';

const hpaV2: ResourceDefinition = {
  group: 'autoscaling',
  version: 'v2',
  kind: 'HorizontalPodAutoscaler',
  listKind: 'HorizontalPodAutoscalerList',
  plural: 'horizontalpodautoscalers',
  singular: 'horizontalpodautoscaler',
  namespaced: true,
  shortNames: ['hpa'],
  categories: ['all'],
  verbs: ALL_VERBS,
  subresources: { status: true },
  schema: HorizontalPodAutoscalerSchema,
  applyDefaults: applyHpaDefaults,
  validate: validateHpa,
  table: printerFor('HorizontalPodAutoscaler'),
  fieldSelectors: {},
};

/**
 * v1's defaults: minReplicas 1; a status's replica counts are never omitted (Go's zero values, as
 * a protobuf body with an empty status decodes).
 */
function applyHpaV1Defaults(hpa: KubeObject): void {
  setDefault(ensureObject(hpa, 'spec'), 'minReplicas', 1);
  if (isObject(hpa['status'])) {
    setDefault(hpa['status'], 'currentReplicas', 0);
    setDefault(hpa['status'], 'desiredReplicas', 0);
  }
}

// v1 is checked and printed as what it is stored as: the same rules, the same columns.
const hpaV1: ResourceDefinition = {
  ...hpaV2,
  version: 'v1',
  categories: [],
  schema: HorizontalPodAutoscalerV1Schema,
  applyDefaults: applyHpaV1Defaults,
  validate: (hpa) => validateHpa(hpaV1ToV2(hpa)),
  table: { columns: hpaV2.table.columns, row: (hpa, now) => hpaV2.table.row(hpaV1ToV2(hpa), now) },
  storedForm: { toStored: hpaV1ToV2, fromStored: hpaV2ToV1 },
};

export const autoscalingDefinitions: readonly ResourceDefinition[] = [hpaV2, hpaV1];
