// One linear pass over JSON text that JSON.parse already accepted, for what JSON.parse keeps to
// itself: keys given twice in one object (Kubernetes' strict decoding reports them as
// `duplicate field "spec.replicas"`; JSON.parse silently keeps the last) and the depth of
// nesting. Paths are built only for duplicates, from the open containers, so the pass costs a
// Set insertion per key and nothing per value.
import { MAX_BODY_DEPTH, MAX_REPORTED_DUPLICATES, tooDeep } from './limits.js';

interface Frame {
  keys: Set<string> | undefined;
  /** The member being read (objects) or the item index (arrays): the next child's path step. */
  key: string;
  index: number;
}

const QUOTE = 34;
const BACKSLASH = 92;

/** Duplicate member paths of valid JSON text; throws 400 past the depth limit. */
export function duplicateJsonFields(text: string): string[] {
  const frames: Frame[] = [];
  const duplicates: string[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      const top = frames[frames.length - 1];
      if (expectKey && top?.keys) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        if (top.keys.has(key)) {
          if (duplicates.length < MAX_REPORTED_DUPLICATES) duplicates.push(pathOf(frames, key));
        } else top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
      i = end;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (frames.length >= MAX_BODY_DEPTH) throw tooDeep();
      frames.push({ keys: c === 123 ? new Set() : undefined, key: '', index: 0 });
      expectKey = c === 123;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      frames.pop();
    } else if (c === 44 /* , */) {
      const top = frames[frames.length - 1];
      if (top?.keys) expectKey = true;
      else if (top) top.index++;
    }
  }
  return duplicates;
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    let slashes = 0;
    while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

/** `spec.containers[0].name` for a member `key` of the innermost open object. */
function pathOf(frames: Frame[], key: string): string {
  let path = '';
  for (let depth = 1; depth < frames.length; depth++) {
    const parent = frames[depth - 1]!;
    path += parent.keys ? (path ? `.${parent.key}` : parent.key) : `[${parent.index}]`;
  }
  return path ? `${path}.${key}` : key;
}
