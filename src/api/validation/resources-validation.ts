// Container resource requirements: valid resource names, non-negative quantities, requests <= limits.
import type { FieldError } from '../meta.js';
import { invalid } from './field-errors.js';
import { isQualifiedName } from './name-rules.js';
import { parseQuantity } from './quantity.js';
import { obj, type Obj } from './util.js';

const STANDARD_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage', 'storage', 'pods']);

function isResourceName(name: string): boolean {
  if (STANDARD_RESOURCES.has(name) || name.startsWith('hugepages-')) return true;
  // Extended resources (nvidia.com/gpu, example.com/foo) must be domain-prefixed.
  return name.includes('/') && isQualifiedName(name).length === 0;
}

/** A map of resource name → quantity (requests, limits, a gang's minResources). */
export function validateResourceList(list: Obj, path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(list)) {
    const at = `${path}[${name}]`;
    if (!isResourceName(name)) errors.push(invalid(at, name, 'must be a standard resource type or fully qualified'));
    const amount = parseQuantity(value);
    if (amount !== undefined && amount < 0) errors.push(invalid(at, value, 'must be greater than or equal to 0'));
  }
  return errors;
}

export function validateResources(resources: unknown, path: string): FieldError[] {
  const limits = obj(obj(resources)['limits']);
  const requests = obj(obj(resources)['requests']);
  const errors = [...validateResourceList(limits, `${path}.limits`), ...validateResourceList(requests, `${path}.requests`)];
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
