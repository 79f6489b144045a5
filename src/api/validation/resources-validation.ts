// Container resource requirements: valid resource names, non-negative quantities, requests <= limits.
import type { FieldError } from '../meta.js';
import { invalid } from './field-errors.js';
import { isQualifiedName } from './name-rules.js';
import { parseQuantity } from './quantity.js';
import { obj } from './util.js';

const STANDARD_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage', 'storage', 'pods']);

function isResourceName(name: string): boolean {
  if (STANDARD_RESOURCES.has(name) || name.startsWith('hugepages-')) return true;
  // Extended resources (nvidia.com/gpu, example.com/foo) must be domain-prefixed.
  return name.includes('/') && isQualifiedName(name).length === 0;
}

export function validateResources(resources: unknown, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const limits = obj(obj(resources)['limits']);
  const requests = obj(obj(resources)['requests']);
  for (const [kind, list] of [['limits', limits], ['requests', requests]] as const) {
    for (const [name, value] of Object.entries(list)) {
      const at = `${path}.${kind}[${name}]`;
      if (!isResourceName(name)) errors.push(invalid(at, name, 'must be a standard resource type or fully qualified'));
      const amount = parseQuantity(value);
      if (amount !== undefined && amount < 0) errors.push(invalid(at, value, 'must be greater than or equal to 0'));
    }
  }
  for (const [name, request] of Object.entries(requests)) {
    const limit = limits[name];
    if (limit === undefined) continue;
    const requested = parseQuantity(request);
    const limited = parseQuantity(limit);
    if (requested !== undefined && limited !== undefined && requested > limited) {
      errors.push(invalid(`${path}.requests`, String(request), `must be less than or equal to ${name} limit of ${String(limit)}`));
    }
  }
  return errors;
}
