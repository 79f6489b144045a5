// What one request body may be. Kubernetes stops JSON at 10,000 levels of nesting; Drover's
// readers, patchers and writers recurse through objects, and a stack overflow in any of them on
// a stored object would make that object unreadable for good (a ConfigMap whose managedFields
// nested 3,450 deep broke every YAML read of its namespace). So the door admits only what every
// reader handles with room to spare: real objects nest a few dozen levels at most, and a test
// reads, patches and applies an object at exactly this depth through every path.
import { badRequest } from '../errors.js';

export const MAX_BODY_DEPTH = 500;

/** Duplicate fields reported per body: the first ones say enough. */
export const MAX_REPORTED_DUPLICATES = 20;

export function tooDeep(): Error {
  return badRequest(`the request body nests deeper than ${MAX_BODY_DEPTH} levels`);
}

/** Throws 400 when `value` nests deeper than the limit. Iterative: the check itself cannot overflow. */
export function checkDepth(value: unknown): void {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) throw tooDeep();
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
}

/** A stack overflow inside a parser is the body's depth, not the server's fault. */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}
