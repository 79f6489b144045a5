// JSON Patch (RFC 6902), content type application/json-patch+json. The whole document is
// validated before anything is applied, so a malformed operation late in the list is still a
// 400; operations then run in order on a private copy, and the first failing one fails the
// whole patch (422), leaving the input untouched.
import { inapplicablePatch, malformedPatch, PatchError } from './errors.js';
import { arrayIndex, isProperPrefix, parsePointer } from './json-pointer.js';
import { cloneJson, getOwn, hasOwn, isObject, setOwn, type JsonObject } from './json-value.js';
import { jsonEqual } from '../../util/json-equal.js';

/** Kubernetes refuses longer patches; the limit keeps one request from looping for long. */
export const MAX_JSON_PATCH_OPERATIONS = 10_000;
/** Bound on what `copy` operations may duplicate in total (three times the 3 MiB body limit, as in Kubernetes). */
export const MAX_JSON_PATCH_COPY_BYTES = 9 * 1024 * 1024;

export type JsonPatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; tokens: string[]; value: unknown }
  | { op: 'remove'; path: string; tokens: string[] }
  | { op: 'move' | 'copy'; path: string; tokens: string[]; from: string; fromTokens: string[] };

type OpName = JsonPatchOperation['op'];
const OPS: ReadonlySet<string> = new Set<OpName>(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** Validates a JSON Patch document and returns its operations with parsed pointers. */
export function parseJsonPatch(patch: unknown): JsonPatchOperation[] {
  if (!Array.isArray(patch)) throw malformedPatch('a JSON patch must be a JSON array of operations');
  if (patch.length > MAX_JSON_PATCH_OPERATIONS) {
    throw malformedPatch(`the allowed number of operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, but the patch contains ${patch.length}`);
  }
  return patch.map((raw, index) => parseOperation(raw, index));
}

function parseOperation(raw: unknown, index: number): JsonPatchOperation {
  const where = `json patch operation ${index}`;
  if (!isObject(raw)) throw malformedPatch(`${where} is not a JSON object`);
  const op = getOwn(raw, 'op');
  if (typeof op !== 'string') throw malformedPatch(`${where} has no "op" string`);
  if (!OPS.has(op)) throw malformedPatch(`${where} has an unknown "op": ${JSON.stringify(op)}`);
  const name = op as OpName;
  const [path, tokens] = pointerMember(raw, 'path', `${where} ("${name}")`);
  if (name === 'remove') return { op: name, path, tokens };
  if (name === 'move' || name === 'copy') {
    const [from, fromTokens] = pointerMember(raw, 'from', `${where} ("${name}")`);
    if (name === 'move' && isProperPrefix(fromTokens, tokens)) {
      throw malformedPatch(`${where} ("move") cannot move ${from || '""'} into its own child ${path}`);
    }
    return { op: name, path, tokens, from, fromTokens };
  }
  if (!hasOwn(raw, 'value')) throw malformedPatch(`${where} ("${name}") has no "value"`);
  return { op: name, path, tokens, value: raw['value'] };
}

function pointerMember(raw: JsonObject, member: 'path' | 'from', where: string): [string, string[]] {
  const value = getOwn(raw, member);
  if (typeof value !== 'string') throw malformedPatch(`${where} has no "${member}" string`);
  try {
    return [value, parsePointer(value)];
  } catch (error) {
    if (error instanceof PatchError) throw malformedPatch(`${where}: ${error.message}`);
    throw error;
  }
}

/** Applies a JSON Patch to a document and returns the new document; the inputs are not changed. */
export function applyJsonPatch(document: unknown, patch: unknown): unknown {
  const operations = parseJsonPatch(patch);
  let doc = cloneJson(document);
  const budget = { copiedBytes: 0 };
  for (const operation of operations) doc = applyOperation(doc, operation, budget);
  return doc;
}

function applyOperation(doc: unknown, operation: JsonPatchOperation, budget: { copiedBytes: number }): unknown {
  const at = new Target(operation.op, operation.path);
  switch (operation.op) {
    case 'add':
      return at.add(doc, operation.tokens, cloneJson(operation.value));
    case 'remove':
      at.remove(doc, operation.tokens);
      return doc;
    case 'replace':
      return at.replace(doc, operation.tokens, cloneJson(operation.value));
    case 'test':
      if (!jsonEqual(at.get(doc, operation.tokens), operation.value)) {
        throw inapplicablePatch(`the "test" operation failed at ${operation.path || '""'}`);
      }
      return doc;
    case 'move':
      return move(doc, operation, at);
    case 'copy':
      return copy(doc, operation, at, budget);
  }
}

function move(doc: unknown, operation: { path: string; tokens: string[]; from: string; fromTokens: string[] }, at: Target): unknown {
  const source = new Target('move', `${operation.from || '""'} (from)`);
  if (jsonEqual(operation.fromTokens, operation.tokens)) {
    source.get(doc, operation.fromTokens);
    return doc;
  }
  const value = source.remove(doc, operation.fromTokens);
  return at.add(doc, operation.tokens, value);
}

function copy(doc: unknown, operation: { tokens: string[]; from: string; fromTokens: string[] }, at: Target, budget: { copiedBytes: number }): unknown {
  const value = new Target('copy', `${operation.from || '""'} (from)`).get(doc, operation.fromTokens);
  budget.copiedBytes += JSON.stringify(value)?.length ?? 0;
  if (budget.copiedBytes > MAX_JSON_PATCH_COPY_BYTES) {
    throw inapplicablePatch(`the "copy" operations of this patch duplicate more than ${MAX_JSON_PATCH_COPY_BYTES} bytes`);
  }
  return at.add(doc, operation.tokens, cloneJson(value));
}

type Step = { ok: true; value: unknown } | { ok: false; why: string };

function step(container: unknown, token: string): Step {
  if (Array.isArray(container)) {
    const index = arrayIndex(token);
    if (index === undefined) return { ok: false, why: `${JSON.stringify(token)} is not an array index` };
    if (index >= container.length) return { ok: false, why: outOfBounds(index, container.length) };
    return { ok: true, value: container[index] };
  }
  if (isObject(container) && hasOwn(container, token)) return { ok: true, value: container[token] };
  return { ok: false, why: 'the path does not exist' };
}

function outOfBounds(index: number, length: number): string {
  return `index ${index} is out of bounds (the array has ${length} item${length === 1 ? '' : 's'})`;
}

/** One location of one operation: resolves pointers in a document and names the operation in errors. */
class Target {
  constructor(
    private readonly op: OpName,
    private readonly pointer: string,
  ) {}

  fail(why: string): PatchError {
    return inapplicablePatch(`the "${this.op}" operation failed at ${this.pointer || '""'}: ${why}`);
  }

  get(doc: unknown, tokens: string[]): unknown {
    let current = doc;
    for (const token of tokens) {
      const next = step(current, token);
      if (!next.ok) throw this.fail(next.why);
      current = next.value;
    }
    return current;
  }

  private parent(doc: unknown, tokens: string[]): { container: JsonObject | unknown[]; last: string } {
    const container = this.get(doc, tokens.slice(0, -1));
    if (!Array.isArray(container) && !isObject(container)) throw this.fail('the parent of the path is not an object or an array');
    return { container, last: tokens[tokens.length - 1]! };
  }

  add(doc: unknown, tokens: string[], value: unknown): unknown {
    if (tokens.length === 0) return value;
    const { container, last } = this.parent(doc, tokens);
    if (!Array.isArray(container)) {
      setOwn(container, last, value);
      return doc;
    }
    const index = last === '-' ? container.length : arrayIndex(last);
    if (index === undefined) throw this.fail(`${JSON.stringify(last)} is not an array index`);
    if (index > container.length) throw this.fail(outOfBounds(index, container.length));
    container.splice(index, 0, value);
    return doc;
  }

  /** Removes the value at the path and returns it. */
  remove(doc: unknown, tokens: string[]): unknown {
    if (tokens.length === 0) throw this.fail('the whole document cannot be removed');
    const { container, last } = this.parent(doc, tokens);
    const found = step(container, last);
    if (!found.ok) throw this.fail(found.why);
    if (Array.isArray(container)) container.splice(Number(last), 1);
    else delete container[last];
    return found.value;
  }

  replace(doc: unknown, tokens: string[], value: unknown): unknown {
    if (tokens.length === 0) return value;
    const { container, last } = this.parent(doc, tokens);
    const found = step(container, last);
    if (!found.ok) throw this.fail(found.why);
    if (Array.isArray(container)) container[Number(last)] = value;
    else setOwn(container, last, value);
    return doc;
  }
}
