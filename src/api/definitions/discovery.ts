// ResourceDefinitions of discovery.k8s.io/v1: EndpointSlices.
import type { ResourceDefinition } from '../resource.js';

export const discoveryDefinitions: readonly ResourceDefinition[] = [];
