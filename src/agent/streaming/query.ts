// Query parameters of the streaming endpoints, read the way the kubelet reads them.

import { badRequest } from './status.js';

/** The first of `names` present: "", "true" and "1" are true, "false" and "0" false. */
export function flag(query: URLSearchParams, ...names: string[]): boolean {
  for (const name of names) {
    const value = query.get(name);
    if (value === null) continue;
    if (value === '' || value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    throw badRequest(`${name}: Invalid value: "${value}": must be true or false`);
  }
  return false;
}

export function integer(query: URLSearchParams, name: string, min: number): number | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw badRequest(`${name}: Invalid value: "${value}": must be an integer of at least ${min}`);
  return n;
}
