// What the two reconcilers of the endpoints controller read and write through.
import { type Service, SERVICE_NAME_LABEL, type EndpointSlice } from '../../api/services.js';
import type { KubeObject } from '../../api/meta.js';
import type { EventRecorder, Informer } from '../../client/index.js';
import type { ControllerContext } from '../context.js';
import type { WriteTracker } from './write-tracker.js';
import { isManagedSlice } from './slices.js';
import type { Pod } from '../../api/core/index.js';

/** Managed slices by `namespace/service-name`. */
export const SLICE_SERVICE_INDEX = 'endpointslice-service';

export function sliceServiceKey(slice: Readonly<KubeObject>): string {
  return `${slice.metadata.namespace ?? ''}/${slice.metadata.labels?.[SERVICE_NAME_LABEL] ?? ''}`;
}

/** The index function (one function object, so that shared informers can add it twice). */
export const bySliceService = (slice: Readonly<KubeObject>): readonly string[] => (isManagedSlice(slice) ? [sliceServiceKey(slice)] : []);

export interface EndpointsDeps {
  ctx: ControllerContext;
  services: Informer<Service>;
  pods: Informer<Pod>;
  endpoints: Informer<KubeObject>;
  slices: Informer<EndpointSlice>;
  /** Writes not yet in the informers' caches, by service key. */
  trackers: { endpoints: WriteTracker; slices: WriteTracker };
  recorder: { endpoints: EventRecorder; slices: EventRecorder };
  maxEndpointsPerSlice?: number;
  /** The pods a service selects, from the cache. */
  podsFor(service: Readonly<Service>): Readonly<Pod>[];
  /** The zone of a node (its topology.kubernetes.io/zone label), when known. */
  zoneOf(nodeName: string): string | undefined;
}
