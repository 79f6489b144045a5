// Reconciles the EndpointSlices of one service key (Kubernetes' endpointslice-controller).
import type { EndpointSlice } from '../../api/services.js';
import type { KubeObject } from '../../api/meta.js';
import { isConflict, isNotFound, resources, splitKey, type ReconcileResult } from '../../client/index.js';
import { SLICE_SERVICE_INDEX, type EndpointsDeps } from './deps.js';
import { serviceSelector } from './pods.js';
import { planSlices, type PlanOptions } from './slices.js';

/** How soon a service waiting for its own slice writes to reach the cache looks again. */
const STALE_RETRY_MS = 1000;

export async function reconcileSlices(deps: EndpointsDeps, key: string): Promise<ReconcileResult | void> {
  const { namespace } = splitKey(key);
  const client = deps.ctx.api.resource<EndpointSlice>(resources.endpointslices, namespace);
  const service = deps.services.get(key);
  const existing = deps.slices.byIndex(SLICE_SERVICE_INDEX, key).filter((slice) => !slice.metadata.deletionTimestamp);
  if (!service) {
    // Garbage collection would follow the owner references; deleting here does not depend on it.
    for (const slice of existing) await deleteSlice(client, slice);
    deps.trackers.slices.forget(key);
    return;
  }
  // Slices of a service without a selector are someone else's to write (as in Kubernetes).
  if (!serviceSelector(service)) return;
  // Planning from a cache that misses our last writes would duplicate them.
  if (deps.trackers.slices.isStale(key)) return { requeueAfterMs: STALE_RETRY_MS };

  const options: PlanOptions = { zoneOf: deps.zoneOf };
  if (deps.maxEndpointsPerSlice !== undefined) options.maxPerSlice = deps.maxEndpointsPerSlice;
  const plan = planSlices(service, deps.podsFor(service), existing, options);
  try {
    // Creates and updates before deletes, so that readers never see the service without endpoints.
    for (const slice of plan.create) deps.trackers.slices.wrote(key, await client.create(slice));
    for (const slice of plan.update) deps.trackers.slices.wrote(key, await client.update(slice));
    for (const slice of plan.delete) {
      deps.trackers.slices.deleted(key, slice);
      await deleteSlice(client, slice);
    }
  } catch (error) {
    // A conflict only means the cache was behind: the retry sees more.
    if (!isConflict(error))
      void deps.recorder.slices.record(
        service as KubeObject,
        'Warning',
        'FailedToUpdateEndpointSlices',
        `Error updating Endpoint Slices for Service ${key}: ${(error as Error).message}`,
      );
    throw error;
  }
}

async function deleteSlice(client: ReturnType<EndpointsDeps['ctx']['api']['resource']>, slice: Readonly<KubeObject>): Promise<void> {
  await client.delete(slice.metadata.name ?? '').catch((error: unknown) => {
    if (!isNotFound(error)) throw error;
  });
}
