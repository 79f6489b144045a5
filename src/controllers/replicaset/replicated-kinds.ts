// The two kinds the ReplicaSet controller's core keeps, as Kubernetes' ReplicationManager is the
// ReplicaSet controller run over ReplicationControllers: apps/v1 ReplicaSet (a LabelSelector)
// and core/v1 ReplicationController (a plain label map, every key must match).
import { fromLabelSelectorObject, selectorFromSet, type LabelSelector } from '../../api/selectors/index.js';
import { resources, type ResourceRef } from '../../client/index.js';

type WithSelector = Readonly<{ spec: { selector?: unknown } }>;

export interface ReplicatedKind {
  /** The controller's name: its events' source and its queue's name. */
  controllerName: string;
  resource: ResourceRef;
  /** The compiled selector of a cached object (compiled once per object: cached objects never change). */
  selectorOf(object: WithSelector): LabelSelector;
}

function memoized(compile: (selector: unknown) => LabelSelector): (object: WithSelector) => LabelSelector {
  const compiled = new WeakMap<object, LabelSelector>();
  return (object) => {
    let selector = compiled.get(object);
    if (!selector) {
      try {
        selector = compile(object.spec.selector);
      } catch {
        selector = fromLabelSelectorObject(null); // an unparsable selector matches nothing
      }
      compiled.set(object, selector);
    }
    return selector;
  };
}

/** The LabelSelector at spec.selector (ReplicaSets, and Deployments which share it). */
export const labelSelectorOf = memoized((selector) => fromLabelSelectorObject(selector as Parameters<typeof fromLabelSelectorObject>[0]));

export const REPLICA_SETS: ReplicatedKind = { controllerName: 'replicaset-controller', resource: resources.replicasets, selectorOf: labelSelectorOf };

export const REPLICATION_CONTROLLERS: ReplicatedKind = {
  controllerName: 'replication-controller',
  resource: resources.replicationcontrollers,
  // An empty map would select everything; validation refuses it, and here it selects nothing.
  selectorOf: memoized((selector) => {
    const set = (selector ?? {}) as Record<string, string>;
    return Object.keys(set).length === 0 ? fromLabelSelectorObject(null) : selectorFromSet(set);
  }),
};
