// YAML bodies, in time linear in their size. The yaml package's own duplicate-key check
// compares every key with every earlier one of its map: 20,000 keys took 11 s, during which
// no other client was served. Here the library only parses (uniqueKeys off), and one pass over
// the parsed document finds duplicate keys with a Set per map, as JSON bodies get them.
import { isAlias, isMap, isScalar, isSeq, parseAllDocuments, type Node } from 'yaml';
import { badRequest } from '../errors.js';
import { checkDepth, isStackOverflow, MAX_REPORTED_DUPLICATES, tooDeep } from './limits.js';
import type { DecodedBody } from './index.js';

/** Aliases expand into copies; the library's default bound keeps a "billion laughs" small. */
const MAX_ALIAS_COUNT = 100;

export function decodeYamlBody(text: string): DecodedBody {
  try {
    const documents = parseAllDocuments(text, { uniqueKeys: false });
    const list = Array.isArray(documents) ? documents : [];
    if (list.length !== 1) throw badRequest(`the request body must hold exactly one YAML document, found ${list.length}`);
    const doc = list[0]!;
    if (doc.errors.length > 0) throw invalidYaml(doc.errors[0]!);
    const duplicates = duplicateYamlKeys(doc.contents);
    const value: unknown = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    checkDepth(value);
    return { value, duplicates };
  } catch (error) {
    if (isStackOverflow(error)) throw tooDeep();
    if (error instanceof Error && error.name.startsWith('YAML')) throw invalidYaml(error);
    throw error;
  }
}

function invalidYaml(error: Error): Error {
  // The parser reports its own stack overflow as a YAML error.
  if (/call stack/i.test(error.message)) return tooDeep();
  return badRequest(`the request body is not valid YAML: ${error.message}`);
}

function duplicateYamlKeys(root: Node | null): string[] {
  const duplicates: string[] = [];
  const stack: Array<[Node | null, string]> = [[root, '']];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : JSON.stringify(pair.key);
        const child = path ? `${path}.${key}` : key;
        if (seen.has(key)) duplicates.push(child);
        seen.add(key);
        if (isMap(pair.value) || isSeq(pair.value)) stack.push([pair.value, child]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => {
        if ((isMap(item) || isSeq(item)) && !isAlias(item)) stack.push([item as Node, `${path}[${index}]`]);
      });
    }
  }
  return duplicates.slice(0, MAX_REPORTED_DUPLICATES);
}
