// Informer handlers for a farm member's own keys. A workload's Transactions are observed on its
// informer, and every farm member runs that informer; only the member that reconciles the
// workload records them, so that two members never record one operation twice. Used by the
// ReplicaSet, Deployment, Job and training-job Transactions.
import type { KubeObject } from '../../api/meta.js';
import { objectKey, type EventHandlers } from '../../client/index.js';

/** `handlers`, each called only for an object whose key `owns` says this process reconciles. */
export function ofOwnedKeys<T extends KubeObject>(owns: (key: string) => boolean, handlers: EventHandlers<T>): EventHandlers<T> {
  const mine = (object: Readonly<T>) => owns(objectKey(object));
  const { onAdd, onUpdate, onDelete } = handlers;
  return {
    ...(onAdd && {
      onAdd: (object: Readonly<T>) => {
        if (mine(object)) onAdd(object);
      },
    }),
    ...(onUpdate && {
      onUpdate: (old: Readonly<T>, object: Readonly<T>) => {
        if (mine(object)) onUpdate(old, object);
      },
    }),
    ...(onDelete && {
      onDelete: (object: Readonly<T>) => {
        if (mine(object)) onDelete(object);
      },
    }),
  };
}
