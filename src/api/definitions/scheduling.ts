// ResourceDefinitions of scheduling.k8s.io/v1: PriorityClasses (cluster-scoped). The built-in
// system classes are written at start (apiserver/priority-classes.ts); pods get their priority
// from a class in the Priority admission step (apiserver/admission/priority-admission.ts).
import type { KubeObject } from '../meta.js';
import type { ResourceDefinition } from '../resource.js';
import { printerFor } from '../printers/index.js';
import { PriorityClassSchema } from '../schemas/priority-class.js';
import { PRIORITY_CLASS_GROUP } from '../scheduling/priority.js';
import { validatePriorityClass } from '../validation/priority-class-validation.js';
import { ALL_VERBS } from './helpers.js';

/** As Kubernetes' SetDefaults_PriorityClass: a class preempts unless told Never. */
function applyPriorityClassDefaults(pc: KubeObject): void {
  if (pc['preemptionPolicy'] === undefined || pc['preemptionPolicy'] === null) pc['preemptionPolicy'] = 'PreemptLowerPriority';
}

const priorityClasses: ResourceDefinition = {
  group: PRIORITY_CLASS_GROUP,
  version: 'v1',
  kind: 'PriorityClass',
  listKind: 'PriorityClassList',
  plural: 'priorityclasses',
  singular: 'priorityclass',
  namespaced: false,
  shortNames: ['pc'],
  categories: [],
  verbs: ALL_VERBS,
  subresources: {},
  schema: PriorityClassSchema,
  applyDefaults: applyPriorityClassDefaults,
  validate: validatePriorityClass,
  table: printerFor('PriorityClass'),
  fieldSelectors: {},
};

export const schedulingDefinitions: readonly ResourceDefinition[] = [priorityClasses];
