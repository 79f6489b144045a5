// Informer handlers for a farm member's own keys. A workload's Transactions are observed on its
// informer, and every farm member runs that informer; only the member that reconciles the
// workload records them, so that two members never record one operation twice. Used by the
// ReplicaSet, Deployment, StatefulSet, DaemonSet, Job and training-job Transactions.
import type { KubeObject } from '../../api/meta.js';
import { objectKey, type EventHandlers, type Informer } from '../../client/index.js';

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

/** An observer that begins an operation on a change of the written status, and catches up on what began unwatched. */
export interface OwnedObserver<T extends KubeObject> {
  /** An update: begins what the change starts (a new startTime, a first status written). */
  begin(old: Readonly<T>, object: Readonly<T>): void;
  /**
   * Begins what started while no member watched (a restart, a shard taken over) unless it was
   * recorded; after begin() nothing, since the recorder answers isOpen at once.
   */
  catchUp(object: Readonly<T>): void;
  /** Progress, and the end once the written status shows it. */
  settle(object: Readonly<T>): void;
  deleted?(object: Readonly<T>): void;
}

/** Drives `observer` from `informer`'s events of the keys `owns` says this process reconciles. */
export function observeOwned<T extends KubeObject>(informer: Informer<T>, owns: (key: string) => boolean, observer: OwnedObserver<T>): void {
  informer.addEventHandler(
    ofOwnedKeys(owns, {
      // Seen for the first time: it may have one open from before, or have started unwatched.
      onAdd: (object) => {
        observer.catchUp(object);
        observer.settle(object);
      },
      onUpdate: (old, object) => {
        observer.begin(old, object);
        observer.catchUp(object);
        observer.settle(object);
      },
      ...(observer.deleted && { onDelete: (object: Readonly<T>) => observer.deleted?.(object) }),
    }),
  );
}
