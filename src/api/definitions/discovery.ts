// ResourceDefinitions of discovery.k8s.io/v1: EndpointSlices.
import { isObject, type KubeObject } from '../meta.js';
import type { ResourceDefinition } from '../resource.js';
import { printerFor } from '../printers/index.js';
import { EndpointSliceSchema } from '../schemas/discovery.js';
import { validateEndpointSlice } from '../validation/discovery-validation.js';
import { ALL_VERBS } from './helpers.js';

/** As Kubernetes' v1 defaulter: every port gets a name ("" when unnamed) and a protocol. */
export function applyEndpointSliceDefaults(slice: KubeObject): void {
  if (!Array.isArray(slice['ports'])) return;
  for (const port of slice['ports']) {
    if (!isObject(port)) continue;
    if (port['name'] === undefined || port['name'] === null) port['name'] = '';
    if (port['protocol'] === undefined || port['protocol'] === null || port['protocol'] === '') port['protocol'] = 'TCP';
  }
}

const endpointSlices: ResourceDefinition = {
  group: 'discovery.k8s.io',
  version: 'v1',
  kind: 'EndpointSlice',
  listKind: 'EndpointSliceList',
  plural: 'endpointslices',
  singular: 'endpointslice',
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: ALL_VERBS,
  subresources: {},
  schema: EndpointSliceSchema,
  applyDefaults: applyEndpointSliceDefaults,
  validate: validateEndpointSlice,
  table: printerFor('EndpointSlice'),
  fieldSelectors: {},
};

export const discoveryDefinitions: readonly ResourceDefinition[] = [endpointSlices];
