// Server-side apply (PATCH with application/apply-patch+yaml): the applied configuration is
// the complete set of fields its manager wants to own. It is merged into the live object;
// fields the manager applied last time but no longer does are removed unless someone else
// owns them; and changing a field another manager owns is a conflict unless forced.
import type { KubeObject } from '../../../api/meta.js';
import type { JsonSchema } from '../../../api/schema-nav.js';
import { ApplyConflictError, ApplyInvalidError, type FieldConflict } from './errors.js';
import { clientSideApplied, keepLastAppliedInStep } from './client-side-upgrade.js';
import type { FieldScope } from './field-scope.js';
import { FieldSet } from './field-set.js';
import { fieldsOf, findEntry, newEntry, readEntries, setFields, type TrackedEntry } from './managed-entries.js';
import { mergeObject } from './merge.js';
import { diffObjects } from './object-diff.js';
import { InvalidListError, objectFieldSet } from './object-fields.js';
import { displayPath } from './path-element.js';
import { pruneObject } from './prune.js';
import { releaseFields, storeEntries } from './update.js';
import { cloneJson, isPlainObject } from './values.js';
import { managedTime } from './write-entries.js';

export const beforeFirstApplyManager = 'before-first-apply';

export interface ApplyOptions {
  /** The fieldManager query parameter; required for apply. */
  manager: string;
  /** The force query parameter: take conflicting fields instead of failing. */
  force: boolean;
  schema: JsonSchema;
  /** RFC 3339 time of the write. */
  now: string;
  /** Set for applies through a subresource (`kubectl apply --subresource=status`). */
  subresource?: string;
}

/**
 * Returns the object that results from applying `applied` over `live` (undefined: the apply
 * creates the object), with managedFields updated. Neither argument is modified. Throws
 * ApplyConflictError on conflicts (unless `force`) and ApplyInvalidError for a configuration
 * that cannot be applied.
 */
export function applyServerSide(live: KubeObject | undefined, applied: KubeObject, options: ApplyOptions): KubeObject {
  const steps = applySteps(live, applied, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * applyServerSide, with `pause` awaited between its steps: each walks every field of the
 * object, and for one of 75,000 keys the whole apply held the event loop for 430 ms.
 */
export async function applyServerSideInSlices(
  live: KubeObject | undefined,
  applied: KubeObject,
  options: ApplyOptions,
  pause: () => Promise<void>,
): Promise<KubeObject> {
  const steps = applySteps(live, applied, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pause();
  }
}

/** The apply, yielding between the steps that each walk the whole object. */
function* applySteps(live: KubeObject | undefined, applied: KubeObject, options: ApplyOptions): Generator<void, KubeObject> {
  const scope: FieldScope = { subresource: options.subresource };
  const config = applyConfig(applied);
  yield;
  const appliedSet = appliedFieldSet(config, options.schema, scope);
  yield;
  const entries = readEntries(live?.metadata.managedFields) ?? [];
  if (live && entries.length === 0) entries.push(beforeFirstApply(live, options, scope));
  const own = findEntry(entries, options.manager, 'Apply', options.subresource);
  const others = entries.filter((entry) => entry !== own);
  yield;

  const result: KubeObject = live ? cloneJson(live) : { apiVersion: config.apiVersion, kind: config.kind, metadata: {} };
  yield;
  mergeObject(result, config, options.schema, scope);
  if (own) pruneDropped(result, fieldsOf(own).difference(appliedSet), others, appliedSet, options.schema);
  yield;

  const changes = diffObjects(live ?? { metadata: {} }, result, options.schema, scope);
  takeConflicts(others, changes.changed, options.force, () => clientSideApplied(live, options.manager, options.schema, scope));
  releaseFields(others, changes);
  keepLastAppliedInStep(result, config, options.manager);
  yield;

  const entry = own ?? newEntry(options.manager, 'Apply', options.subresource);
  const modified = !changes.changed.isEmpty() || !changes.removed.isEmpty();
  setFields(entry, appliedSet);
  entry.apiVersion = config.apiVersion;
  entry.time = modified || !entry.time ? managedTime(options.now) : entry.time;
  storeEntries(result, own ? entries : [...entries, entry]);
  return result;
}

/**
 * An object nobody manages yet (created before tracking, or with managedFields cleared) gets
 * its existing fields attributed to a placeholder Update manager, as Kubernetes does, so that
 * the first apply conflicts with them instead of silently taking them over.
 */
function beforeFirstApply(live: KubeObject, options: ApplyOptions, scope: FieldScope): TrackedEntry {
  const entry = newEntry(beforeFirstApplyManager, 'Update', undefined);
  setFields(entry, objectFieldSet(live, options.schema, scope));
  entry.apiVersion = live.apiVersion;
  entry.time = managedTime(options.now);
  return entry;
}

/** A private copy of the configuration; managedFields may not be applied. */
function applyConfig(applied: KubeObject): KubeObject {
  const managed: unknown = applied.metadata?.managedFields;
  if (Array.isArray(managed) ? managed.length > 0 : managed !== undefined && managed !== null) {
    throw new ApplyInvalidError('metadata.managedFields must be nil');
  }
  const config = cloneJson(applied);
  if (!isPlainObject(config.metadata)) config.metadata = {};
  delete config.metadata.managedFields;
  return config;
}

function appliedFieldSet(config: KubeObject, schema: JsonSchema, scope: FieldScope): FieldSet {
  try {
    return objectFieldSet(config, schema, scope, true);
  } catch (error) {
    if (!(error instanceof InvalidListError)) throw error;
    const kind = `${config.apiVersion}, Kind=${config.kind}`;
    throw new ApplyInvalidError(`failed to create typed patch object (${kind}): ${error.message}`);
  }
}

/** Removes what the applier dropped from its configuration and no other manager owns. */
function pruneDropped(result: KubeObject, dropped: FieldSet, others: readonly TrackedEntry[], appliedSet: FieldSet, schema: JsonSchema): void {
  if (dropped.isEmpty()) return;
  let owned = appliedSet;
  for (const entry of others) owned = owned.union(fieldsOf(entry));
  const orphaned = dropped.difference(owned);
  if (!orphaned.isEmpty()) pruneObject(result, orphaned, owned, schema);
}

/**
 * Fails on fields that change and belong to other managers, or, with force, takes them. When
 * every conflict is over a field kubectl's last client-side apply configured (`upgradable`),
 * the apply takes them as if forced; otherwise only the other conflicts are reported.
 */
function takeConflicts(others: readonly TrackedEntry[], changed: FieldSet, force: boolean, upgradable: () => FieldSet | undefined): void {
  if (changed.isEmpty()) return;
  const contestedBy = others.map((entry) => ({ entry, contested: fieldsOf(entry).intersection(changed) })).filter((c) => !c.contested.isEmpty());
  if (!force && contestedBy.length > 0) {
    // Only a conflict needs the last client-side configuration read (a parse and a field walk).
    const forgiven = upgradable();
    const unforgiven = contestedBy.map((c) => ({ ...c, contested: forgiven === undefined ? c.contested : c.contested.difference(forgiven) }));
    if (unforgiven.some((c) => !c.contested.isEmpty())) {
      const conflicts: FieldConflict[] = [];
      for (const { entry, contested } of unforgiven) for (const path of contested.paths()) conflicts.push(conflictOf(entry, displayPath(path)));
      throw new ApplyConflictError(conflicts);
    }
  }
  for (const { entry, contested } of contestedBy) setFields(entry, fieldsOf(entry).difference(contested));
}

function conflictOf(entry: TrackedEntry, field: string): FieldConflict {
  const conflict: FieldConflict = { manager: entry.manager, field, operation: entry.operation };
  if (entry.subresource) conflict.subresource = entry.subresource;
  if (entry.apiVersion) conflict.apiVersion = entry.apiVersion;
  return conflict;
}
