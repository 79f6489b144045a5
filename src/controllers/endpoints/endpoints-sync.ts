// Reconciles the core/v1 Endpoints of one service key (Kubernetes' endpoint-controller).
import { isHeadless, type Service } from '../../api/services.js';
import type { KubeObject } from '../../api/meta.js';
import { isAlreadyExists, isConflict, isNotFound, resources, splitKey, type ReconcileResult } from '../../client/index.js';
import type { EndpointsDeps } from './deps.js';
import { serviceSelector } from './pods.js';
import { HEADLESS_LABEL } from './slices.js';
import { desiredSubsets, OVER_CAPACITY_ANNOTATION, truncateSubsets } from './subsets.js';
import { jsonEqual, semanticEqual } from '../../util/json-equal.js';

/** The service's labels, plus service.kubernetes.io/headless for headless services. */
export function endpointsLabels(service: Readonly<Service>): Record<string, string> {
  const labels = { ...(service.metadata.labels ?? {}) };
  if (isHeadless(service)) labels[HEADLESS_LABEL] = '';
  else delete labels[HEADLESS_LABEL];
  return labels;
}

/** How soon a service waiting for its own last write to reach the cache looks again (a fallback: the informer event queues it). */
const STALE_RETRY_MS = 1000;

export async function reconcileEndpoints(deps: EndpointsDeps, key: string): Promise<ReconcileResult | void> {
  const { namespace, name } = splitKey(key);
  const client = deps.ctx.api.resource(resources.endpoints, namespace);
  const service = deps.services.get(key);
  if (!service) {
    // The service is gone: so are its endpoints (even ones its owner wrote by hand, as in Kubernetes).
    await client.delete(name).catch((error: unknown) => {
      if (!isNotFound(error)) throw error;
    });
    deps.trackers.endpoints.forget(key);
    return;
  }
  // Without a selector the endpoints belong to whoever maintains them by hand.
  if (!serviceSelector(service)) return;
  // Updating from a cache that misses our last write would only meet a conflict.
  if (deps.trackers.endpoints.isStale(key)) return { requeueAfterMs: STALE_RETRY_MS };

  const subsets = desiredSubsets(service, deps.podsFor(service));
  const truncated = truncateSubsets(subsets);
  const labels = endpointsLabels(service);
  const current = deps.endpoints.get(key);
  if (current) {
    const annotations = current.metadata.annotations ?? {};
    const capacityRight = truncated ? annotations[OVER_CAPACITY_ANNOTATION] === 'truncated' : annotations[OVER_CAPACITY_ANNOTATION] === undefined;
    if (capacityRight && jsonEqual(current.metadata.labels, labels) && semanticEqual(current['subsets'] ?? [], subsets)) return;
  }

  const next: KubeObject = current
    ? (structuredClone(current) as KubeObject)
    : { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace: namespace ?? '' } };
  if (Object.keys(labels).length > 0) next.metadata.labels = labels;
  else delete next.metadata.labels;
  const annotations = { ...(next.metadata.annotations ?? {}) };
  if (truncated) annotations[OVER_CAPACITY_ANNOTATION] = 'truncated';
  else delete annotations[OVER_CAPACITY_ANNOTATION];
  if (Object.keys(annotations).length > 0) next.metadata.annotations = annotations;
  else delete next.metadata.annotations;
  next['subsets'] = subsets;
  try {
    deps.trackers.endpoints.wrote(key, current ? await client.update(next) : await client.create(next));
  } catch (error) {
    // A conflict or a duplicate create only means the cache was behind: the retry sees more.
    if (!isConflict(error) && !isAlreadyExists(error)) {
      const verb = current ? 'update' : 'create';
      void deps.recorder.endpoints.record(
        service as KubeObject,
        'Warning',
        current ? 'FailedToUpdateEndpoint' : 'FailedToCreateEndpoint',
        `Failed to ${verb} endpoint ${key}: ${(error as Error).message}`,
      );
    }
    throw error;
  }
}
