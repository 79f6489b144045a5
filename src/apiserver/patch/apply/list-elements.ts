// Names the items of associative lists: a map-list item by its key fields (`k:`), a set item by
// its value (`v:`). A list whose items cannot be named (a missing key field with no schema
// default, a duplicate, an item of the wrong shape) is reported, so that an applied config is
// rejected as Kubernetes does, while a stored object falls back to treating the list as atomic.
import { listSemantics, type JsonSchema } from '../../../api/schema-nav.js';
import { displayElement, valueElement } from './path-element.js';
import { childItemSchema, childSchema, isPlainObject } from './values.js';

interface KeyField {
  name: string;
  /** `"name":`, the start of this field in the `k:` element. */
  prefix: string;
  /** Schema default, used when an item omits the field (ports' protocol: TCP). */
  fallback: unknown;
}

/** How a list merges, resolved once per list schema: every write walks the same lists. */
export interface ListShape {
  /** atomic lists (and maps without keys) are replaced whole and owned as one field. */
  kind: 'atomic' | 'set' | 'map';
  items: JsonSchema | undefined;
  /** Map-list key fields in name order, the order they are written in `k:` elements. */
  keys: KeyField[];
}

const shapes = new WeakMap<JsonSchema, ListShape>();
const unknownList: ListShape = { kind: 'atomic', items: undefined, keys: [] };

export function listShape(schema: JsonSchema | undefined): ListShape {
  if (!schema) return unknownList;
  let shape = shapes.get(schema);
  if (!shape) {
    shape = resolveShape(schema);
    shapes.set(schema, shape);
  }
  return shape;
}

function resolveShape(schema: JsonSchema): ListShape {
  const semantics = listSemantics(schema);
  const items = childItemSchema(schema);
  if (semantics.listType === 'set') return { kind: 'set', items, keys: [] };
  if (semantics.listType !== 'map' || semantics.mapKeys.length === 0) return { kind: 'atomic', items, keys: [] };
  const keys = [...semantics.mapKeys].sort().map((name) => ({ name, prefix: `${JSON.stringify(name)}:`, fallback: childSchema(items, name)?.['default'] }));
  return { kind: 'map', items, keys };
}

export interface NamedItems {
  /** The path element of each item, in list order. */
  elements: string[];
  /** Element → position in the list. */
  positions: Map<string, number>;
}

interface Unnamed {
  error: string;
}

/** Names the items of a set or map list, or returns why they cannot be named. */
export function nameItems(items: readonly unknown[], shape: ListShape): NamedItems | string {
  const elements: string[] = [];
  const positions = new Map<string, number>();
  for (let i = 0; i < items.length; i++) {
    const element = shape.kind === 'map' ? mapItemElement(items[i], i, shape.keys) : setItemElement(items[i], i);
    if (typeof element !== 'string') return element.error;
    if (positions.has(element)) return `duplicate entries for key ${displayElement(element)}`;
    positions.set(element, i);
    elements.push(element);
  }
  return { elements, positions };
}

/**
 * The path elements of a set or map list's items, in list order, or undefined when they
 * cannot be named: nameItems without the position map or the reason, for walkers that only
 * emit the elements and treat an unnamed list as atomic.
 */
export function itemElements(items: readonly unknown[], shape: ListShape): string[] | undefined {
  const elements: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const element = shape.kind === 'map' ? mapItemElement(items[i], i, shape.keys) : setItemElement(items[i], i);
    if (typeof element !== 'string') return undefined;
    elements.push(element);
  }
  return hasDuplicates(elements) ? undefined : elements;
}

/** The element of one item that nameItems names without error. */
export function itemElement(item: unknown, shape: ListShape): string {
  const element = shape.kind === 'map' ? mapItemElement(item, 0, shape.keys) : setItemElement(item, 0);
  if (typeof element !== 'string') throw new Error(element.error);
  return element;
}

function hasDuplicates(elements: readonly string[]): boolean {
  // Lists are short; a scan beats building a set until they are not.
  if (elements.length > 8) return new Set(elements).size !== elements.length;
  for (let i = 1; i < elements.length; i++) {
    for (let j = 0; j < i; j++) if (elements[i] === elements[j]) return true;
  }
  return false;
}

function mapItemElement(item: unknown, index: number, keys: readonly KeyField[]): string | Unnamed {
  if (!isPlainObject(item)) return { error: `element ${index}: associative list with keys has an element that is not an object` };
  let element = 'k:{';
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as KeyField;
    let value = item[key.name];
    if (value === undefined || value === null) value = key.fallback;
    if (value === undefined || value === null) {
      return {
        error: `element ${index}: associative list with keys has an element that omits key field ${JSON.stringify(key.name)} (and doesn't have default value)`,
      };
    }
    if (typeof value === 'object') return { error: `element ${index}: key field ${JSON.stringify(key.name)} must be a scalar` };
    element += (k > 0 ? ',' : '') + key.prefix + JSON.stringify(value);
  }
  return `${element}}`;
}

function setItemElement(item: unknown, index: number): string | Unnamed {
  if (typeof item === 'object' && item !== null) {
    return { error: `element ${index}: associative list without keys has an element that is not a scalar` };
  }
  return valueElement(item);
}
