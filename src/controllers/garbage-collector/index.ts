// The garbage collector: deletion propagation along ownerReferences (Background, Foreground,
// Orphan), as the API server's deletion marks it.
export { COLLECTED_RESOURCES, COMPONENT, GarbageCollector, garbageCollectorController, type GarbageCollectorOptions } from './garbage-collector.js';
export { OwnershipGraph, GraphNode, type GraphListener } from './graph.js';
