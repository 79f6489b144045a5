// The write path's shortcuts (the one-walk create, fieldsV1 edited as JSON, lists diffed by
// position) must give exactly the JSON of the general FieldSet route, key order included.
// Each is checked against that route on realistic objects and seeded random edits of them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../api/meta.js';
import type { JsonSchema } from '../../../api/schema-nav.js';
import { FieldSet } from './field-set.js';
import { encodeFieldSet, isCanonicalFieldsV1, releaseFieldsV1, unionFieldsV1, type FieldsV1 } from './fields-v1.js';
import { listShape, nameItems } from './list-elements.js';
import { entryAffected, fieldsOf, findEntry, newEntry, setFields } from './managed-entries.js';
import { diffObjects, type FieldChanges } from './object-diff.js';
import { objectFieldSet } from './object-fields.js';
import { objectFieldsV1 } from './object-fields-v1.js';
import { compareElements } from './path-element.js';
import { realisticObjects, type RealisticObject } from '../../../../test/support/apiserver/realistic-objects.js';
import { deployment, deploymentSchema, podTemplate } from '../../../../test/support/apiserver/apply-schema.js';
import { startingEntries, updateManagedFields, type UpdateOptions } from './update.js';
import { childSchema, isGranularObject, isPlainObject, type PlainObject } from './values.js';
import { jsonEqual } from '../../../util/json-equal.js';
import { managedTime, writeEntries } from './write-entries.js';

/** updateManagedFields done wholly with FieldSets: the route every shortcut must match. */
function referenceUpdate(old: KubeObject | undefined, updated: KubeObject, options: UpdateOptions): void {
  // Which entries a write starts from is not a shortcut: both routes share it.
  const entries = startingEntries(old, updated, options.subresource);
  const scope = { subresource: options.subresource };
  const changes: FieldChanges = old
    ? diffObjects(old, updated, options.schema, scope)
    : { changed: objectFieldSet(updated, options.schema, scope), removed: new FieldSet() };
  if (!changes.changed.isEmpty() || !changes.removed.isEmpty()) {
    for (const entry of entries) {
      if (!entryAffected(entry, changes.changed, changes.removed)) continue;
      setFields(entry, fieldsOf(entry).difference(changes.changed).recursiveDifference(changes.removed));
    }
  }
  if (!changes.changed.isEmpty()) {
    let own = findEntry(entries, options.manager, 'Update', options.subresource);
    if (!own) {
      own = newEntry(options.manager, 'Update', options.subresource);
      entries.push(own);
    }
    setFields(own, fieldsOf(own).union(changes.changed));
    own.apiVersion = options.apiVersion;
    own.time = managedTime(options.now);
  }
  const list = writeEntries(entries);
  if (list.length > 0) updated.metadata.managedFields = list;
  else delete updated.metadata.managedFields;
}

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(rand: Random, items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;

/** Every container (object or list) in `value` with its parent and the key under it. */
function containers(value: unknown, out: { parent: PlainObject | unknown[]; key: string | number }[] = []): typeof out {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push({ parent: value, key: i });
      containers(item, out);
    });
  } else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      if (key === 'managedFields') continue;
      out.push({ parent: value, key });
      containers(value[key], out);
    }
  }
  return out;
}

/** One random edit somewhere in the object: the kinds of change clients and controllers make. */
function mutate(object: KubeObject, rand: Random): void {
  // The server always has apiVersion, kind and a metadata object; everything else may change.
  const spots = containers(object).filter((spot) => spot.parent !== object || (spot.key !== 'apiVersion' && spot.key !== 'kind' && spot.key !== 'metadata'));
  if (spots.length === 0) spots.push({ parent: object, key: 'spec' });
  const { parent, key } = pick(rand, spots);
  const get = (): unknown => (parent as Record<string | number, unknown>)[key];
  const set = (value: unknown): void => {
    (parent as Record<string | number, unknown>)[key] = value;
  };
  const value = get();
  const roll = rand();
  if (roll < 0.25) {
    set(typeof value === 'number' ? value + 1 : typeof value === 'string' ? `${value}-x` : 'changed');
  } else if (roll < 0.4) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key as string];
  } else if (roll < 0.5) {
    if (isPlainObject(value)) value[`added${Math.floor(rand() * 3)}`] = pick(rand, ['v', 7, true, {}, [], { nested: 'x' }]);
    else set({ replaced: 'object' });
  } else if (roll < 0.58) {
    set(pick(rand, [{}, [], null, undefined, { gone: undefined }]));
  } else if (roll < 0.7 && Array.isArray(value) && value.length > 0) {
    // A new item: a copy of one with its name or port changed, sometimes left a duplicate.
    const copy = structuredClone(value[Math.floor(rand() * value.length)]);
    if (isPlainObject(copy) && rand() < 0.8) {
      if (typeof copy['name'] === 'string') copy['name'] += '-new';
      for (const port of ['port', 'containerPort']) if (typeof copy[port] === 'number') copy[port] += 1000;
    }
    value.splice(Math.floor(rand() * (value.length + 1)), 0, copy);
  } else if (roll < 0.8 && Array.isArray(value)) {
    value.reverse();
  } else {
    const labels = isPlainObject(object.metadata.labels) ? object.metadata.labels : {};
    labels[pick(rand, ['app', 'tier', 'track', 'release'])] = pick(rand, ['web', 'backend', 'canary', 'v2']);
    object.metadata.labels = labels as Record<string, string>;
  }
}

/** Reverses the key order of every node: what an older writer or a client might store. */
function scrambled(json: unknown): unknown {
  if (!isPlainObject(json)) return json;
  const out: PlainObject = {};
  for (const key of Object.keys(json).reverse()) out[key] = scrambled(json[key]);
  return out;
}

const options = (subject: RealisticObject, manager: string, now: string, subresource?: string): UpdateOptions => ({
  manager,
  operation: 'Update',
  schema: subject.schema,
  apiVersion: subject.apiVersion,
  now,
  ...(subresource ? { subresource } : {}),
});

const spelling = (value: unknown): string => JSON.stringify(value) ?? 'undefined';

/** The route FieldSet.toFieldsV1 takes for a whole object's field set on create. */
function generalCreateFieldsV1(object: KubeObject, schema: JsonSchema, subresource?: string): FieldsV1 {
  return fieldsOf(newEntry('x', 'Update', undefined))
    .union(objectFieldSet(object, schema, { subresource }))
    .toFieldsV1();
}

/** Random variants of each realistic object, the object itself first. */
function variants(count: number, seed: number): { subject: RealisticObject; object: KubeObject }[] {
  const rand = random(seed);
  const out: { subject: RealisticObject; object: KubeObject }[] = [];
  for (const subject of realisticObjects()) {
    out.push({ subject, object: structuredClone(subject.object) });
    for (let i = 0; i < count; i++) {
      const object = structuredClone(subject.object);
      const edits = 1 + Math.floor(rand() * 4);
      for (let e = 0; e < edits; e++) mutate(object, rand);
      out.push({ subject, object });
    }
  }
  return out;
}

describe('objectFieldsV1 (the create walk)', () => {
  it('writes the same fieldsV1 as the FieldSet route for realistic objects and edits of them', () => {
    for (const { subject, object } of variants(150, 1)) {
      for (const subresource of [undefined, 'status']) {
        const expected = generalCreateFieldsV1(object, subject.schema, subresource);
        const actual = objectFieldsV1(object, subject.schema, { subresource });
        assert.equal(spelling(actual), spelling(expected), `${subject.name} ${spelling(object)}`);
        assert.ok(isCanonicalFieldsV1(actual));
      }
    }
  });

  it('sorts field names and list items by their spelling, numeric-looking names included', () => {
    // The order toFieldsV1 has always written. (Kubernetes orders key values by type, e.g.
    // port 80 before 443; matching that would change stored fieldsV1, so it is not done here.)
    const configMap = realisticObjects()[3] as RealisticObject;
    const data = (objectFieldsV1(configMap.object, configMap.schema, {})['f:data'] ?? {}) as FieldsV1;
    assert.deepEqual(Object.keys(data), ['f:10', 'f:2', 'f:LOG_LEVEL', 'f:app.properties', 'f:zz-last', 'f:Übersicht']);
    const service = realisticObjects()[2] as RealisticObject;
    const ports = ((objectFieldsV1(service.object, service.schema, {})['f:spec'] as FieldsV1)['f:ports'] ?? {}) as FieldsV1;
    assert.deepEqual(Object.keys(ports), ['k:{"port":443,"protocol":"TCP"}', 'k:{"port":53,"protocol":"UDP"}', 'k:{"port":80,"protocol":"TCP"}']);
  });
});

describe('fieldsV1 edited as JSON', () => {
  /** Stored fieldsV1 and the changes of a random write to the object it was taken from. */
  function cases(count: number, seed: number): { json: FieldsV1; changes: FieldChanges }[] {
    const rand = random(seed);
    return variants(count, seed + 1).map(({ subject, object }) => {
      const after = structuredClone(object);
      const edits = 1 + Math.floor(rand() * 3);
      for (let e = 0; e < edits; e++) mutate(after, rand);
      return { json: objectFieldsV1(object, subject.schema, {}), changes: diffObjects(object, after, subject.schema, {}) };
    });
  }

  it('releases exactly what difference and recursiveDifference release', () => {
    for (const { json, changes } of cases(100, 7)) {
      const expected = FieldSet.fromFieldsV1(json).difference(changes.changed).recursiveDifference(changes.removed).toFieldsV1();
      assert.equal(spelling(releaseFieldsV1(json, changes.changed, changes.removed)), spelling(expected));
    }
  });

  it('adds exactly what union adds', () => {
    for (const { json, changes } of cases(100, 11)) {
      for (const added of [changes.changed, changes.removed]) {
        assert.equal(spelling(unionFieldsV1(json, added)), spelling(FieldSet.fromFieldsV1(json).union(added).toFieldsV1()));
        assert.equal(spelling(unionFieldsV1({}, added)), spelling(encodeFieldSet(added) ?? {}));
      }
    }
  });

  it('shares untouched subtrees with the stored JSON and returns it whole when nothing changes', () => {
    const pod = realisticObjects()[0] as RealisticObject;
    const json = objectFieldsV1(pod.object, pod.schema, {});
    const label = FieldSet.fromPaths([['f:metadata', 'f:labels', 'f:tier']]);
    const released = releaseFieldsV1(json, label, new FieldSet());
    assert.notEqual(released, json);
    assert.equal(released['f:spec'], json['f:spec']);
    assert.deepEqual(Object.keys((released['f:metadata'] as FieldsV1)['f:labels'] as FieldsV1), ['f:app']);
    assert.equal(releaseFieldsV1(json, FieldSet.fromPaths([['f:metadata', 'f:annotations', 'f:x']]), new FieldSet()), json);
    assert.equal(unionFieldsV1(json, label), json);
    assert.equal(unionFieldsV1(released, label)['f:spec'], json['f:spec']);
  });

  it('takes only JSON spelled as toFieldsV1 writes it', () => {
    const pod = realisticObjects()[0] as RealisticObject;
    assert.ok(isCanonicalFieldsV1(objectFieldsV1(pod.object, pod.schema, {})));
    assert.ok(isCanonicalFieldsV1({}));
    assert.ok(isCanonicalFieldsV1({ 'f:a': { '.': {}, 'f:b': {} }, 'f:b': { 'k:{"x":1}': {}, 'v:"y"': {} } }));
    assert.ok(!isCanonicalFieldsV1({ 'f:b': {}, 'f:a': {} }), 'out of order');
    assert.ok(!isCanonicalFieldsV1({ 'f:a': { 'v:"y"': {}, 'k:{"x":1}': {} } }), 'keys after values');
    assert.ok(!isCanonicalFieldsV1({ 'f:a': { '.': {} } }), 'a lone "."');
    assert.ok(!isCanonicalFieldsV1({ 'f:a': { 'f:b': {}, '.': {} } }), '"." not first');
    assert.ok(!isCanonicalFieldsV1({ 'f:a': { '.': { x: {} }, 'f:b': {} } }), 'a "." that is not empty');
    assert.ok(!isCanonicalFieldsV1({ '.': {}, 'f:a': {} }), 'a member root');
    assert.ok(!isCanonicalFieldsV1({ 'f:a': true }), 'a value that is not an object');
    assert.ok(!isCanonicalFieldsV1({ 'f:a': { 'i:0': {} } }), 'index elements');
  });
});

describe('compareElements', () => {
  /** The allocating version it replaced. */
  function previousCompare(a: string, b: string): number {
    const kindRank: Record<string, number> = { f: 0, k: 1, v: 2, i: 3 };
    if (a[0] === b[0] && a[0] !== 'i') return a < b ? -1 : a > b ? 1 : 0;
    const rankA = kindRank[a[0] ?? ''] ?? 4;
    const rankB = kindRank[b[0] ?? ''] ?? 4;
    if (rankA !== rankB) return rankA - rankB;
    if (rankA === 3) return Number(a.slice(2)) - Number(b.slice(2));
    return a < b ? -1 : a > b ? 1 : 0;
  }

  it('orders every pair of elements as before', () => {
    const elements = ['f:a', 'f:B', 'f:10', 'f:2', 'k:{"a":1}', 'k:{"a":10}', 'v:"x"', 'v:1', 'i:2', 'i:10', '.', '', 'x', 'i', 'f:Ü', 'f:😀'];
    for (const a of elements) for (const b of elements) assert.equal(Math.sign(compareElements(a, b)), Math.sign(previousCompare(a, b)), `${a} ${b}`);
  });
});

describe('lists diffed by position', () => {
  /**
   * Reverses, in place, the named set and map lists of `value` with at least two items, where
   * the diff compares items by key: not inside atomic values, which it compares whole.
   */
  function reverseNamedLists(value: unknown, schema: JsonSchema | undefined): void {
    if (Array.isArray(value)) {
      const shape = listShape(schema);
      if (shape.kind === 'atomic' || typeof nameItems(value, shape) === 'string') return;
      value.reverse();
      for (const item of value) reverseNamedLists(item, shape.items);
    } else if (isGranularObject(value, schema)) {
      for (const key of Object.keys(value)) reverseNamedLists(value[key], childSchema(schema, key));
    }
  }

  it('finds the same changes as pairing items by key', () => {
    const rand = random(3);
    let compared = 0;
    for (const { subject, object } of variants(150, 5)) {
      const after = structuredClone(object);
      mutate(after, rand);
      const reordered = structuredClone(object);
      reverseNamedLists(reordered, subject.schema);
      if (jsonEqual(reordered, object)) continue;
      compared++;
      const byPosition = diffObjects(object, after, subject.schema, {});
      const byKey = diffObjects(reordered, after, subject.schema, {});
      assert.deepEqual(byPosition.changed.toStrings(), byKey.changed.toStrings(), spelling(after));
      assert.deepEqual(byPosition.removed.toStrings(), byKey.removed.toStrings(), spelling(after));
    }
    assert.ok(compared > 100);
  });

  it('still compares lists whole when their items cannot be named', () => {
    const withPorts = (ports: unknown[]): KubeObject =>
      deployment({ template: podTemplate([{ name: 'web', image: 'x', ports: ports as Record<string, unknown>[] }]) });
    const ports = '.spec.template.spec.containers[name="web"].ports';
    const unnameable = [
      [{ containerPort: 80 }, { containerPort: 80, protocol: 'TCP' }],
      [{ containerPort: 80 }, { name: 'no-port' }],
      [{ containerPort: { nested: 80 } }, { containerPort: 81 }],
      [{ containerPort: 80 }, 'not an object'],
    ];
    for (const items of unnameable) {
      const before = withPorts(items);
      const after = withPorts(structuredClone(items).map((item) => (isPlainObject(item) ? { ...item, name: 'renamed' } : item)));
      const { changed, removed } = diffObjects(before, after, deploymentSchema, {});
      assert.deepEqual(changed.toStrings(), [ports], spelling(items));
      assert.deepEqual(removed.toStrings(), [ports], spelling(items));
    }
  });
});

describe('updateManagedFields', () => {
  it('writes the same managedFields as the FieldSet route over random write sequences', () => {
    const rand = random(42);
    const managers = ['creator', 'editor', 'kubelet', 'controller'];
    for (let sequence = 0; sequence < 120; sequence++) {
      const subject = pick(rand, realisticObjects());
      const created = structuredClone(subject.object);
      if (rand() < 0.2) mutate(created, rand);
      let fast = structuredClone(created);
      let reference = structuredClone(created);
      updateManagedFields(undefined, fast, options(subject, 'creator', '2024-01-01T00:00:00Z'));
      referenceUpdate(undefined, reference, options(subject, 'creator', '2024-01-01T00:00:00Z'));
      assert.equal(spelling(fast.metadata.managedFields), spelling(reference.metadata.managedFields), 'create');
      for (let step = 1; step <= 8; step++) {
        if (rand() < 0.1) {
          // As an older writer might have stored it: same fields, not in canonical order.
          for (const live of [fast, reference]) for (const entry of live.metadata.managedFields ?? []) entry.fieldsV1 = scrambled(entry.fieldsV1) as FieldsV1;
        }
        const next = structuredClone(fast);
        const edits = Math.floor(rand() * 3);
        for (let e = 0; e < edits; e++) mutate(next, rand);
        const sent = rand();
        if (sent < 0.2) delete next.metadata.managedFields;
        else if (sent < 0.25) next.metadata.managedFields = [{}];
        else if (sent < 0.3) next.metadata.managedFields = scrambled(next.metadata.managedFields) as KubeObject['metadata']['managedFields'];
        const now = `2024-01-01T00:${String(step).padStart(2, '0')}:00.5Z`;
        const writeOptions = options(subject, pick(rand, managers), now, rand() < 0.15 ? 'status' : undefined);
        const fastNext = structuredClone(next);
        const referenceNext = structuredClone(next);
        updateManagedFields(fast, fastNext, writeOptions);
        referenceUpdate(reference, referenceNext, writeOptions);
        assert.equal(spelling(fastNext.metadata.managedFields), spelling(referenceNext.metadata.managedFields), `sequence ${sequence} step ${step}`);
        fast = fastNext;
        reference = referenceNext;
      }
    }
  });

  it('creates with client-sent managedFields by the FieldSet route', () => {
    const subject = realisticObjects()[0] as RealisticObject;
    const sent = [
      {
        manager: 'other',
        operation: 'Apply' as const,
        fieldsType: 'FieldsV1' as const,
        fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:hostname': {} } },
      },
    ];
    const fast = structuredClone(subject.object);
    fast.metadata.managedFields = structuredClone(sent);
    const reference = structuredClone(fast);
    updateManagedFields(undefined, fast, options(subject, 'creator', '2024-01-01T00:00:00Z'));
    referenceUpdate(undefined, reference, options(subject, 'creator', '2024-01-01T00:00:00Z'));
    assert.equal(spelling(fast.metadata.managedFields), spelling(reference.metadata.managedFields));
    assert.deepEqual(
      fast.metadata.managedFields?.map((entry) => [entry.manager, entry.fieldsV1]),
      [
        ['other', { 'f:spec': { 'f:hostname': {} } }],
        ['creator', objectFieldsV1(subject.object, subject.schema, {})],
      ],
    );
  });
});
