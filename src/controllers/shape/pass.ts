// One pass of a workload controller, in two halves, as the DaemonSet controller first wrote it:
//
//   plan(observed) → Changes     pure: what to create and delete, decided from what the caches
//                                show (the primary, its claimed objects, the controller's own
//                                memory passed in as values); unit-tested without a server.
//   carryOut(changes, writes)    the writes, under expectations, reporting what they did.
//
// The reconcile around the two is the same in every workload controller: plan and carry out
// only when the owner's expectations are satisfied (else the cache may still lag behind the
// last pass's writes); compute the status from what was observed; write it when it changed;
// and only then throw the carry-out's first error, so that a failed write still leaves a
// current status (ReplicaFailure, counts) behind. Transactions do not learn from the pass: they
// observe the objects' informers (shape/owned-events.ts). The Outcome serves what only the pass
// knows: the status's counts of this pass's writes (a Job's active pods), the error the pass ends
// with, and which creations replaced a lost pod (a ReplicaSet's lost-pod memory and its
// 'reschedule' Transactions).
import { isNotFound, objectKey, type Expectations } from '../../client/index.js';
import type { KubeObject } from '../../api/meta.js';
import { slowStartBatch } from '../slow-start.js';

/** What a pass decided: one entry per object to create (what to build it from), and the objects to delete. */
export interface Changes<C, D extends KubeObject> {
  creations: readonly C[];
  deletions: readonly Readonly<D>[];
}

export function noChanges<C, D extends KubeObject>(changes: Changes<C, D>): boolean {
  return changes.creations.length === 0 && changes.deletions.length === 0;
}

/** The controller's own writes (each records its own events), and the expectations they count against. */
export interface Writes<C, D extends KubeObject, O> {
  expectations: Expectations;
  /**
   * The owner's expectation key (its `namespace/name` or its uid, as the controller keys them),
   * or one per write where a controller keeps several per owner (a training job's, per replica type).
   */
  key: string | ExpectationKeys<C, D>;
  /** Creates one object; undefined when none was created and no event will come of it (its name was taken). */
  create(item: C): Promise<O | undefined>;
  /** Deletes one object; a NotFound it throws counts as deleted (someone else did it), and lowers the expectation. */
  delete(object: Readonly<D>): Promise<void>;
  /**
   * 'slow-start' (the default): creations in batches of 1, 2, 4 … that stop at the first batch
   * with a failure, as Kubernetes' controllers create pods; 'all': every creation at once.
   */
  creations?: 'slow-start' | 'all';
}

export interface ExpectationKeys<C, D extends KubeObject> {
  creation(item: C): string;
  /** Undefined: the object counts against no expectation. */
  deletion(object: Readonly<D>): string | undefined;
}

/** What a carry-out did: for the status, the replaced lost pods and the error the pass ends with. */
export interface Outcome<C, D extends KubeObject, O> {
  created: Array<{ item: C; object: O }>;
  deleted: Readonly<D>[];
  /** Every failed write, in order; NotFound deletions are not failures. */
  errors: unknown[];
}

/**
 * Carries out `changes`: raises the owner's expectations for every write first (deletions by
 * the objects' keys, so that an object seen going twice counts once), deletes, then creates;
 * a write that failed or was never attempted lowers them again, since no event will come of it.
 */
export async function carryOut<C, D extends KubeObject, O>(changes: Changes<C, D>, writes: Writes<C, D, O>): Promise<Outcome<C, D, O>> {
  const outcome: Outcome<C, D, O> = { created: [], deleted: [], errors: [] };
  if (noChanges(changes)) return outcome;
  expect(changes, writes);
  await deleteAll(changes.deletions, writes, outcome);
  await createAll(changes.creations, writes, outcome);
  return outcome;
}

/** Sets each key's expectations: its deletions by the objects' keys, and its creations on top. */
function expect<C, D extends KubeObject>({ creations, deletions }: Changes<C, D>, writes: Writes<C, D, unknown>): void {
  const byKey = new Map<string, { adds: number; dels: string[] }>();
  const entry = (key: string) => byKey.get(key) ?? byKey.set(key, { adds: 0, dels: [] }).get(key)!;
  for (const object of deletions) {
    const key = deletionKey(writes, object);
    if (key !== undefined) entry(key).dels.push(objectKey(object));
  }
  for (const item of creations) entry(creationKey(writes, item)).adds++;
  for (const [key, { adds, dels }] of byKey) {
    if (dels.length === 0) {
      writes.expectations.expectCreations(key, adds);
      continue;
    }
    writes.expectations.expectDeletions(key, dels);
    if (adds > 0) writes.expectations.raise(key, adds);
  }
}

function creationKey<C, D extends KubeObject>(writes: Writes<C, D, unknown>, item: C): string {
  return typeof writes.key === 'string' ? writes.key : writes.key.creation(item);
}

function deletionKey<C, D extends KubeObject>(writes: Writes<C, D, unknown>, object: Readonly<D>): string | undefined {
  return typeof writes.key === 'string' ? writes.key : writes.key.deletion(object);
}

async function deleteAll<C, D extends KubeObject, O>(deletions: readonly Readonly<D>[], writes: Writes<C, D, O>, outcome: Outcome<C, D, O>): Promise<void> {
  const results = await Promise.allSettled(deletions.map((object) => writes.delete(object)));
  results.forEach((result, i) => {
    const object = deletions[i]!;
    if (result.status === 'fulfilled') {
      outcome.deleted.push(object);
      return;
    }
    const key = deletionKey(writes, object);
    if (key !== undefined) writes.expectations.deletionObserved(key, objectKey(object));
    if (isNotFound(result.reason))
      outcome.deleted.push(object); // gone all the same
    else outcome.errors.push(result.reason);
  });
}

async function createAll<C, D extends KubeObject, O>(creations: readonly C[], writes: Writes<C, D, O>, outcome: Outcome<C, D, O>): Promise<void> {
  const createOne = async (item: C) => {
    let object: O | undefined;
    try {
      object = await writes.create(item);
    } catch (error) {
      writes.expectations.creationObserved(creationKey(writes, item));
      throw error;
    }
    if (object === undefined) writes.expectations.creationObserved(creationKey(writes, item));
    else outcome.created.push({ item, object });
  };
  if (writes.creations === 'all') {
    const results = await Promise.allSettled(creations.map(createOne));
    for (const result of results) if (result.status === 'rejected') outcome.errors.push(result.reason);
    return;
  }
  const result = await slowStartBatch(creations, 1, createOne);
  for (const item of creations.slice(creations.length - result.skipped)) writes.expectations.creationObserved(creationKey(writes, item));
  outcome.errors.push(...result.errors);
}
