// Set operations done directly on fieldsV1 JSON, for the write path. Decoding an entry into a
// FieldSet, changing a few paths and encoding it again costs time in proportion to everything
// the entry owns; editing the JSON copies only the nodes on the changed paths and shares every
// untouched subtree with the stored entry. Each function gives exactly the JSON that the
// FieldSet route (fromFieldsV1, the operation, toFieldsV1) gives, provided the input is
// canonical, i.e. exactly what toFieldsV1 writes; `isCanonicalFieldsV1` checks that.
import { sortedElements, type FieldSet } from './field-set.js';
import { compareElements } from './path-element.js';
import { isEmptyJson, isPlainObject } from './values.js';

export type FieldsV1 = Record<string, unknown>;

const dot = '.';

/**
 * True when `json` is spelled exactly as FieldSet.toFieldsV1 would write the set it denotes:
 * every value an object, elements in compareElements order, and "." first, empty, and only
 * beside other elements. Index elements (`i:`), which this code never writes, and a "." at the
 * root (the root being a member) are left to the FieldSet route.
 */
export function isCanonicalFieldsV1(json: FieldsV1): boolean {
  if (json[dot] !== undefined) return false;
  return canonicalNode(json);
}

function canonicalNode(node: FieldsV1): boolean {
  let previous: string | undefined;
  let hasDot = false;
  for (const element in node) {
    const value = node[element];
    if (!isPlainObject(value)) return false;
    if (element === dot) {
      if (previous !== undefined || !isEmptyJson(value)) return false;
      hasDot = true;
      continue;
    }
    if (element.charCodeAt(0) === 105 /* i */) return false;
    if (previous !== undefined && compareElements(previous, element) >= 0) return false;
    if (!canonicalNode(value)) return false;
    previous = element;
  }
  // A member without children is written `{}`, never `{".": {}}`.
  return !hasDot || previous !== undefined;
}

/** Whether a non-root node is itself a member: a leaf `{}` or a node with ".". */
function isMember(node: FieldsV1): boolean {
  return node[dot] !== undefined || isEmptyJson(node);
}

/**
 * `fromFieldsV1(json).difference(changed).recursiveDifference(removed).toFieldsV1()` for a
 * canonical root. Returns `json` itself when nothing in it is released.
 */
export function releaseFieldsV1(json: FieldsV1, changed: FieldSet, removed: FieldSet): FieldsV1 {
  return releaseNode(json, false, changed, removed) ?? {};
}

/** The released node, the same object when unchanged, or undefined when nothing is left. */
function releaseNode(node: FieldsV1, member: boolean, changed: FieldSet | undefined, removed: FieldSet | undefined): FieldsV1 | undefined {
  if (removed?.member) return undefined;
  const keepMember = member && !changed?.member;
  let touched = keepMember !== member;
  const kids = startNode(keepMember);
  let count = 0;
  for (const element in node) {
    if (element === dot) continue;
    const sub = node[element] as FieldsV1;
    const subChanged = changed?.get(element);
    const subRemoved = removed?.get(element);
    const next = subChanged || subRemoved ? releaseNode(sub, isMember(sub), subChanged, subRemoved) : sub;
    if (next !== sub) touched = true;
    if (next === undefined) continue;
    kids[element] = next;
    count++;
  }
  if (!touched) return node;
  return build(keepMember, kids, count);
}

/**
 * `fromFieldsV1(json).union(added).toFieldsV1()` for a canonical root. Returns `json` itself
 * when `added` adds nothing.
 */
export function unionFieldsV1(json: FieldsV1, added: FieldSet): FieldsV1 {
  return unionNode(json, false, added) ?? {};
}

/** The node with `added` merged in (`node` undefined: not there yet), children kept in order. */
function unionNode(node: FieldsV1 | undefined, member: boolean, added: FieldSet): FieldsV1 | undefined {
  const newMember = member || added.member;
  let touched = newMember !== member;
  const elements = sortedElements(added);
  const kids = startNode(newMember);
  let count = 0;
  let next = 0;
  const addUpTo = (element: string | undefined): void => {
    for (; next < elements.length; next++) {
      const candidate = elements[next] as string;
      if (element !== undefined && compareElements(candidate, element) >= 0) return;
      const encoded = encodeFieldSet(added.get(candidate) as FieldSet);
      if (encoded === undefined) continue;
      kids[candidate] = encoded;
      count++;
      touched = true;
    }
  };
  if (node) {
    for (const element in node) {
      if (element === dot) continue;
      addUpTo(element);
      const sub = node[element] as FieldsV1;
      let merged = sub;
      if (elements[next] === element) {
        merged = unionNode(sub, isMember(sub), added.get(element) as FieldSet) as FieldsV1;
        next++;
        if (merged !== sub) touched = true;
      }
      kids[element] = merged;
      count++;
    }
  }
  addUpTo(undefined);
  if (!touched) return node;
  return build(newMember, kids, count);
}

/** `set.toFieldsV1()` without the empty nodes a FieldSet may hold; undefined for an empty set. */
export function encodeFieldSet(set: FieldSet): FieldsV1 | undefined {
  const kids = startNode(set.member);
  let count = 0;
  for (const element of sortedElements(set)) {
    const encoded = encodeFieldSet(set.get(element) as FieldSet);
    if (encoded === undefined) continue;
    kids[element] = encoded;
    count++;
  }
  return build(set.member, kids, count);
}

/** A node about to receive its children in order; a member's "." comes first. */
function startNode(member: boolean): FieldsV1 {
  return member ? { '.': {} } : {}; // a literal: V8 gives it a fixed shape
}

/** The node begun by startNode once `count` children are in; undefined when it is empty. */
function build(member: boolean, node: FieldsV1, count: number): FieldsV1 | undefined {
  if (count > 0) return node;
  return member ? {} : undefined;
}
