// Path elements are kept in their fieldsV1 spelling (`f:name`, `k:{"name":"web"}`, `v:"x"`,
// `i:0`) everywhere, so field sets convert to and from fieldsV1 without re-encoding and a
// lookup in stored fieldsV1 JSON is a plain property access.

// Field elements are property names of the fieldsV1 objects built on every write; a fresh
// concatenation must be flattened and hashed each time it is used as one, a cached string
// only once. Field names are unbounded (label keys, data keys), so the cache starts over
// when it fills up.
const fieldElements = new Map<string, string>();
const maxCachedFieldElements = 10_000;

/** `f:<name>`: a field of an object. */
export function fieldElement(name: string): string {
  let element = fieldElements.get(name);
  if (element === undefined) {
    if (fieldElements.size >= maxCachedFieldElements) fieldElements.clear();
    element = `f:${name}`;
    fieldElements.set(name, element);
  }
  return element;
}

/**
 * `k:<json>`: an item of a map-list, named by its key fields. The key fields are written in
 * name order so that the same item always gets the same element, whatever order the client
 * sent them in.
 */
export function keyElement(keys: Readonly<Record<string, unknown>>): string {
  return `k:${canonicalJson(keys)}`;
}

/** `v:<json>`: an item of a set-list, named by its value. */
export function valueElement(value: unknown): string {
  return `v:${JSON.stringify(value)}`;
}

function canonicalJson(keys: Readonly<Record<string, unknown>>): string {
  const names = Object.keys(keys);
  if (names.length > 1) names.sort();
  const parts = names.map((name) => `${JSON.stringify(name)}:${JSON.stringify(keys[name])}`);
  return `{${parts.join(',')}}`;
}

/** Rewrites a `k:` element read from stored or client-sent fieldsV1 into the canonical spelling. */
export function canonicalElement(element: string): string {
  if (!element.startsWith('k:{')) return element;
  try {
    const parsed: unknown = JSON.parse(element.slice(2));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return element;
    return keyElement(parsed as Record<string, unknown>);
  } catch {
    return element;
  }
}

const fieldKind = 0x66; // f
const keyKind = 0x6b; // k
const valueKind = 0x76; // v
const indexKind = 0x69; // i

/** Rank of an element's kind by its first character code (NaN for ''), without allocating. */
function kindRank(kind: number): number {
  switch (kind) {
    case fieldKind:
      return 0;
    case keyKind:
      return 1;
    case valueKind:
      return 2;
    case indexKind:
      return 3;
    default:
      return 4;
  }
}

/** Kubernetes' order of elements in fieldsV1: fields, then keys, then values, then indexes. */
export function compareElements(a: string, b: string): number {
  const kindA = a.charCodeAt(0);
  const kindB = b.charCodeAt(0);
  // Sorting compares elements of one kind almost always: plain string order, `i:` aside.
  if (kindA === kindB && kindA !== indexKind) return a < b ? -1 : a > b ? 1 : 0;
  const rankA = kindRank(kindA);
  const rankB = kindRank(kindB);
  if (rankA !== rankB) return rankA - rankB;
  if (rankA === 3) return Number(a.slice(2)) - Number(b.slice(2));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One element as Kubernetes prints paths: `.replicas`, `[name="web"]`, `[="x"]`, `[0]`. */
export function displayElement(element: string): string {
  const body = element.slice(2);
  switch (element[0]) {
    case 'f':
      return `.${body}`;
    case 'v':
      return `[=${body}]`;
    case 'i':
      return `[${body}]`;
    case 'k':
      return displayKey(body);
    default:
      return element;
  }
}

function displayKey(json: string): string {
  try {
    const keys = JSON.parse(json) as Record<string, unknown>;
    const parts = Object.keys(keys)
      .sort()
      .map((name) => `${name}=${JSON.stringify(keys[name])}`);
    return `[${parts.join(',')}]`;
  } catch {
    return `[${json}]`;
  }
}

/** A whole path as Kubernetes prints it in conflicts, e.g. `.spec.containers[name="web"].image`. */
export function displayPath(path: readonly string[]): string {
  return path.map(displayElement).join('');
}
