// JSON Pointer (RFC 6901) as JSON Patch uses it. Syntax errors are the patch's fault
// (BadRequest); whether a pointer resolves in a document is decided by the caller.
import { malformedPatch } from './errors.js';

/** The reference tokens of a pointer, unescaped. The empty pointer "" is the whole document. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) {
    throw malformedPatch(`invalid JSON pointer ${JSON.stringify(pointer)}: it must be empty or start with "/"`);
  }
  return pointer
    .slice(1)
    .split('/')
    .map((token) => unescapeToken(token, pointer));
}

function unescapeToken(token: string, pointer: string): string {
  if (!token.includes('~')) return token;
  if (/~(?![01])/.test(token)) {
    throw malformedPatch(`invalid JSON pointer ${JSON.stringify(pointer)}: "~" must be followed by "0" or "1"`);
  }
  // ~1 first, then ~0: "~01" must become "~1", not "/".
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The array index a token names, or undefined when it is not an index: RFC 6901 allows only
 * "0" or digits without a leading zero (so "01", "-1" and "1e0" are not indexes).
 */
export function arrayIndex(token: string): number | undefined {
  return /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : undefined;
}

/** True when `prefix` names an ancestor of `tokens` (a proper prefix). */
export function isProperPrefix(prefix: string[], tokens: string[]): boolean {
  return prefix.length < tokens.length && prefix.every((token, i) => tokens[i] === token);
}
