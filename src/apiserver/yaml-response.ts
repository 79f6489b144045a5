// Response bodies as YAML, for clients that ask for application/yaml. The yaml package builds a
// document tree of the whole value before it writes a character: a 2.4 MB object took 700 ms of
// the event loop, and a list of such objects seconds. Responses are plain JSON data (objects,
// arrays, strings, numbers, booleans, null), so one pass that writes block YAML directly is
// enough: strings that could be read as anything else are double-quoted as JSON quotes them,
// which is YAML too.

/** Block YAML of a JSON value, ending in a newline; parses back to the same value. */
export function toYaml(value: unknown): string {
  const out: string[] = [];
  if (isNonEmptyContainer(value)) writeBlock(out, value, '');
  else out.push(scalar(value));
  return `${out.join('\n')}\n`;
}

function isNonEmptyContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return value.length > 0;
  return value !== null && typeof value === 'object' && Object.keys(value).length > 0;
}

/** Lines for a non-empty object or array, each starting with `indent`. */
function writeBlock(out: string[], value: Record<string, unknown> | unknown[], indent: string): void {
  const nested = `${indent}  `;
  if (Array.isArray(value)) {
    for (const item of value) {
      if (!isNonEmptyContainer(item)) {
        out.push(`${indent}- ${scalar(item)}`);
        continue;
      }
      // The item's first line shares the dash's line: `- name: a` / `  image: b`.
      const first = out.length;
      writeBlock(out, item, nested);
      out[first] = `${indent}- ${out[first]!.slice(nested.length)}`;
    }
    return;
  }
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    if (isNonEmptyContainer(child)) {
      out.push(`${indent}${scalar(key)}:`);
      writeBlock(out, child, nested);
    } else out.push(`${indent}${scalar(key)}: ${scalar(child)}`);
  }
}

// Plain (unquoted) only when no YAML reader could take it for anything but this string: a
// letter, digit-free start, no indicator characters, and not a word YAML 1.1 reads as a value.
const PLAIN = /^[A-Za-z_][\w./-]*(?: [\w./-]+)*$/;
const KEYWORD = /^(?:y|n|yes|no|true|false|on|off|null)$/i;
// Characters YAML does not allow unescaped, which JSON.stringify leaves as they are.
const UNPRINTABLE = /[\u007f-\u009f\u2028\u2029\ufeff]/g;

function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') {
    if (PLAIN.test(value) && !KEYWORD.test(value)) return value;
    return JSON.stringify(value).replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return '[]';
  return '{}';
}
