// A set of field paths, stored as a trie keyed by fieldsV1 path elements. A node is a member
// when the path that leads to it is in the set; it may at the same time have children (a
// map-list item owns its "." and its fields). Set operations return new sets and never leave
// empty children behind, so `isEmpty` is a constant-time check.
import { canonicalElement, compareElements, displayPath } from './path-element.js';
import { isEmptyJson } from './values.js';

export class FieldSet {
  member = false;
  private kids: Map<string, FieldSet> | undefined;

  /** The child for `element`, created when missing. */
  child(element: string): FieldSet {
    this.kids ??= new Map();
    let node = this.kids.get(element);
    if (!node) {
      node = new FieldSet();
      this.kids.set(element, node);
    }
    return node;
  }

  get(element: string): FieldSet | undefined {
    return this.kids?.get(element);
  }

  /** Children in insertion order; sorted views are made only where order is visible. */
  children(): IterableIterator<[string, FieldSet]> {
    return (this.kids ?? emptyChildren).entries();
  }

  hasChildren(): boolean {
    return this.kids !== undefined && this.kids.size > 0;
  }

  isEmpty(): boolean {
    return !this.member && !this.hasChildren();
  }

  /** Drops the child for `element` (used to discard a subtree that ended up empty). */
  delete(element: string): void {
    this.kids?.delete(element);
  }

  /** The node at `path`, created along the way. */
  descend(path: readonly string[]): FieldSet {
    let node: FieldSet = this;
    for (const element of path) node = node.child(element);
    return node;
  }

  insert(path: readonly string[]): this {
    this.descend(path).member = true;
    return this;
  }

  has(path: readonly string[]): boolean {
    let node: FieldSet | undefined = this;
    for (const element of path) {
      node = node.get(element);
      if (!node) return false;
    }
    return node.member;
  }

  /** Number of member paths. */
  get size(): number {
    let count = this.member ? 1 : 0;
    for (const [, node] of this.children()) count += node.size;
    return count;
  }

  clone(): FieldSet {
    return this.union(new FieldSet());
  }

  union(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member || other.member;
    for (const [element, node] of this.children()) {
      const theirs = other.get(element);
      out.adopt(element, theirs ? node.union(theirs) : node.union(empty));
    }
    for (const [element, node] of other.children()) {
      if (!this.get(element)) out.adopt(element, node.union(empty));
    }
    return out;
  }

  /** Members of this set that are not members of `other` (children of a removed member stay). */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member && !other.member;
    for (const [element, node] of this.children()) {
      const theirs = other.get(element);
      out.adopt(element, theirs ? node.difference(theirs) : node.union(empty));
    }
    return out;
  }

  /** Like `difference`, but a member of `other` also removes everything below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    if (other.member) return out;
    out.member = this.member;
    for (const [element, node] of this.children()) {
      const theirs = other.get(element);
      out.adopt(element, theirs ? node.recursiveDifference(theirs) : node.union(empty));
    }
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member && other.member;
    for (const [element, node] of this.children()) {
      const theirs = other.get(element);
      if (theirs) out.adopt(element, node.intersection(theirs));
    }
    return out;
  }

  /** Member paths, in fieldsV1 order. */
  paths(): string[][] {
    const out: string[][] = [];
    collectPaths(this, [], out);
    return out;
  }

  /** Member paths as Kubernetes prints them, e.g. `.spec.replicas`. */
  toStrings(): string[] {
    return this.paths().map(displayPath);
  }

  toFieldsV1(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (this.member && this.hasChildren()) out['.'] = {};
    for (const element of sortedElements(this)) {
      out[element] = (this.get(element) as FieldSet).toFieldsV1();
    }
    return out;
  }

  /**
   * Reads fieldsV1 JSON; a `{}` node or a `"."` key marks a member. Malformed parts are
   * skipped. `canonical` rewrites `k:` elements from clients that order key fields otherwise;
   * fieldsV1 this code wrote is canonical already.
   */
  static fromFieldsV1(json: unknown, canonical = false): FieldSet {
    const out = new FieldSet();
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return out;
    for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
      if (key === '.') {
        out.member = true;
        continue;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
      const node = FieldSet.fromFieldsV1(value, canonical);
      if (node.isEmpty() && isEmptyJson(value)) node.member = true;
      out.adopt(canonical ? canonicalElement(key) : key, node);
    }
    return out;
  }

  static fromPaths(paths: readonly (readonly string[])[]): FieldSet {
    const out = new FieldSet();
    for (const path of paths) out.insert(path);
    return out;
  }

  private adopt(element: string, node: FieldSet): void {
    if (node.isEmpty()) return;
    const existing = this.get(element);
    if (existing) {
      this.kids?.set(element, existing.union(node));
      return;
    }
    this.kids ??= new Map();
    this.kids.set(element, node);
  }
}

const emptyChildren = new Map<string, FieldSet>();

const empty = new FieldSet();

/** A set's child elements in the order fieldsV1 and paths list them. */
export function sortedElements(set: FieldSet): string[] {
  const elements: string[] = [];
  for (const [element] of set.children()) elements.push(element);
  if (elements.length > 1) elements.sort(compareElements);
  return elements;
}

function collectPaths(set: FieldSet, prefix: string[], out: string[][]): void {
  if (set.member) out.push(prefix.slice());
  for (const element of sortedElements(set)) {
    prefix.push(element);
    collectPaths(set.get(element) as FieldSet, prefix, out);
    prefix.pop();
  }
}
