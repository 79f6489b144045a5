// The simple JSON paths CRDs use for printer columns and the scale subresource: `.spec.replicas`,
// `.status.conditions[0].type`, `.spec.items[*].name`, `.status.conditions[?(@.type=="Ready")].status`.
// Kubernetes accepts the same subset for additionalPrinterColumns (no recursive descent).
import { isObject } from '../meta.js';

type Step = { field: string } | { index: number | '*' } | { filter: { field: string; value: string } };

const cache = new Map<string, Step[] | undefined>();

/** The steps of a path, or undefined when it is not one this subset reads. */
export function parseJsonPath(path: string): Step[] | undefined {
  if (cache.has(path)) return cache.get(path);
  const steps: Step[] = [];
  const text = path.trim().replace(/^\{|\}$/g, '');
  const token = /\.([A-Za-z0-9_-]+)|\[(\d+|\*)\]|\[\?\(@\.([A-Za-z0-9_-]+)\s*==\s*["']([^"']*)["']\)\]|\['([^']+)'\]/y;
  let at = 0;
  while (at < text.length) {
    token.lastIndex = at;
    const match = token.exec(text);
    if (!match) {
      cache.set(path, undefined);
      return undefined;
    }
    if (match[1] !== undefined) steps.push({ field: match[1] });
    else if (match[2] !== undefined) steps.push({ index: match[2] === '*' ? '*' : Number(match[2]) });
    else if (match[3] !== undefined) steps.push({ filter: { field: match[3], value: match[4]! } });
    else steps.push({ field: match[5]! });
    at = token.lastIndex;
  }
  const parsed = text.startsWith('.') && steps.length > 0 ? steps : undefined;
  cache.set(path, parsed);
  return parsed;
}

/** Every value the path reaches (a wildcard or filter may reach several). */
export function readJsonPath(object: unknown, path: string): unknown[] {
  let current: unknown[] = [object];
  for (const step of parseJsonPath(path) ?? []) {
    const next: unknown[] = [];
    for (const value of current) {
      if ('field' in step) {
        if (isObject(value) && value[step.field] !== undefined) next.push(value[step.field]);
      } else if ('index' in step) {
        if (!Array.isArray(value)) continue;
        if (step.index === '*') next.push(...value);
        else if (value[step.index] !== undefined) next.push(value[step.index]);
      } else if (Array.isArray(value)) {
        next.push(...value.filter((item) => isObject(item) && String(item[step.filter.field]) === step.filter.value));
      }
    }
    current = next;
  }
  return parseJsonPath(path) ? current : [];
}
