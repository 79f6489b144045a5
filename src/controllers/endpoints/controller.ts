// The endpoints controller: for every Service with a selector, an Endpoints object of the same
// name and a set of EndpointSlices listing the pods that back it. Two queues of service keys,
// as Kubernetes runs two controllers (endpoint-controller, endpointslice-controller), share the
// informers and the pod → service lookup.
//
// Pod events are the hot path (every status write of every agent): an update whose endpoint
// fingerprint is unchanged enqueues nothing, and the services of a pod are found among the
// services of its namespace (an index), never by scanning every service.
import type { Service, EndpointSlice } from '../../api/services.js';
import type { KubeObject } from '../../api/meta.js';
import { indexers, objectKey, resources } from '../../client/index.js';
import type { ControllerContext } from '../context.js';
import { NAMESPACE_INDEX } from '../shape/indexes.js';
import { QueueShape, ShapeGroup } from '../shape/workload-controller.js';
import { bySliceService, SLICE_SERVICE_INDEX, sliceServiceKey, type EndpointsDeps } from './deps.js';
import { reconcileEndpoints } from './endpoints-sync.js';
import { endpointFingerprint, selectorMatches, serviceSelector, shouldPodBeInEndpoints } from './pods.js';
import { isManagedSlice } from './slices.js';
import { reconcileSlices } from './slices-sync.js';
import { WriteTracker } from './write-tracker.js';
import { jsonEqual } from '../../util/json-equal.js';
import type { Pod } from '../../api/core/index.js';

export const ENDPOINTS_COMPONENT = 'endpoint-controller';
export const SLICES_COMPONENT = 'endpoint-slice-controller';

const ZONE_LABEL = 'topology.kubernetes.io/zone';
const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';

export interface EndpointsControllerOptions {
  workers?: number;
  maxEndpointsPerSlice?: number;
}

export class EndpointsController extends ShapeGroup {
  /** Both are For(Service): every service event goes to both queues. */
  private readonly endpointsShape: QueueShape<Service>;
  private readonly slicesShape: QueueShape<Service>;
  private readonly deps: EndpointsDeps;

  constructor(ctx: ControllerContext, options: EndpointsControllerOptions = {}) {
    super(ENDPOINTS_COMPONENT);
    const workers = options.workers ?? 2;
    this.endpointsShape = this.add(
      new QueueShape<Service>(ctx, {
        name: ENDPOINTS_COMPONENT,
        resource: resources.services,
        workers,
        reconcile: (key) => reconcileEndpoints(this.deps, key),
      }),
    );
    this.slicesShape = this.add(
      new QueueShape<Service>(ctx, {
        name: SLICES_COMPONENT,
        resource: resources.services,
        workers,
        reconcile: (key) => reconcileSlices(this.deps, key),
      }),
    );
    const services = this.endpointsShape.primary;
    const pods = ctx.factory.informerFor<Pod>(resources.pods);
    const endpoints = ctx.factory.informerFor(resources.endpoints);
    const slices = ctx.factory.informerFor<EndpointSlice>(resources.endpointslices);
    const nodes = ctx.factory.informerFor(resources.nodes);
    services.addIndexer(NAMESPACE_INDEX, indexers.namespace);
    pods.addIndexer(NAMESPACE_INDEX, indexers.namespace);
    slices.addIndexer(SLICE_SERVICE_INDEX, bySliceService);
    this.deps = {
      ctx,
      services,
      pods,
      endpoints,
      slices,
      trackers: {
        endpoints: new WriteTracker((namespace, name) => endpoints.getByName(namespace, name)),
        slices: new WriteTracker((namespace, name) => slices.getByName(namespace, name)),
      },
      recorder: { endpoints: ctx.recorder(ENDPOINTS_COMPONENT), slices: ctx.recorder(SLICES_COMPONENT) },
      podsFor: (service) => {
        const selector = serviceSelector(service);
        if (!selector) return [];
        return pods.byIndex(NAMESPACE_INDEX, service.metadata.namespace ?? '').filter((pod) => selectorMatches(selector, pod.metadata.labels));
      },
      zoneOf: (nodeName) => nodes.getByName(undefined, nodeName)?.metadata.labels?.[ZONE_LABEL],
    };
    if (options.maxEndpointsPerSlice !== undefined) this.deps.maxEndpointsPerSlice = options.maxEndpointsPerSlice;
    this.watch();
  }

  private enqueue(key: string): void {
    this.endpointsShape.queue.add(key);
    this.slicesShape.queue.add(key);
  }

  /** Keys of the services in the pod's namespace whose selector matches its labels. */
  private servicesFor(pod: Readonly<Pod>): string[] {
    const keys: string[] = [];
    for (const service of this.deps.services.byIndex(NAMESPACE_INDEX, pod.metadata.namespace ?? '')) {
      const selector = serviceSelector(service);
      if (selector && selectorMatches(selector, pod.metadata.labels)) keys.push(objectKey(service));
    }
    return keys;
  }

  private watch(): void {
    const { pods, endpoints, slices, trackers } = this.deps;
    pods.addEventHandler({
      // A pod without an address (or finished) is in no endpoints: nothing to do until that changes.
      onAdd: (pod) => {
        if (shouldPodBeInEndpoints(pod, true)) for (const key of this.servicesFor(pod)) this.enqueue(key);
      },
      onUpdate: (old, pod) => {
        if (old === pod) return; // resync: the services' own resync covers it
        const relabelled = !jsonEqual(old.metadata.labels, pod.metadata.labels);
        if (!relabelled && endpointFingerprint(old) === endpointFingerprint(pod)) return;
        const keys = new Set(this.servicesFor(pod));
        if (relabelled) for (const key of this.servicesFor(old)) keys.add(key);
        for (const key of keys) this.enqueue(key);
      },
      onDelete: (pod) => {
        if (shouldPodBeInEndpoints(pod, true)) for (const key of this.servicesFor(pod)) this.enqueue(key);
      },
    });
    // Kubernetes recreates deleted Endpoints, but lets others edit them; a service waiting for
    // its own write to reach the cache goes again once it has.
    const onEndpoints = (ep: Readonly<KubeObject>) => {
      if (trackers.endpoints.observe(objectKey(ep), ep, false) === 'caught-up') this.endpointsShape.queue.add(objectKey(ep));
    };
    endpoints.addEventHandler({
      onAdd: onEndpoints,
      onUpdate: (old, ep) => {
        if (old !== ep) onEndpoints(ep);
      },
      onDelete: (ep) => {
        trackers.endpoints.observe(objectKey(ep), ep, true);
        this.endpointsShape.queue.add(objectKey(ep));
      },
    });
    const onSlice = (slice: Readonly<EndpointSlice>, removed: boolean) => {
      if (!isManagedSlice(slice)) return;
      const key = sliceServiceKey(slice);
      if (trackers.slices.observe(key, slice, removed) !== 'own') this.slicesShape.queue.add(key);
    };
    slices.addEventHandler({
      onAdd: (slice) => onSlice(slice, false),
      onUpdate: (old, slice) => {
        if (old !== slice) onSlice(slice, false);
      },
      onDelete: (slice) => onSlice(slice, true),
    });
  }

  override start(): void {
    super.start();
    // Endpoints left behind by services deleted while no controller ran (checkLeftoverEndpoints);
    // old-style leader-election records live in Endpoints without a service and are kept.
    const { deps } = this;
    for (const ep of deps.endpoints.list()) {
      const key = objectKey(ep);
      if (!deps.services.get(key) && ep.metadata.annotations?.[LEADER_ANNOTATION] === undefined) this.endpointsShape.queue.add(key);
    }
  }
}
