// `kubectl get endpointslices` for discovery.k8s.io/v1 EndpointSlice, as Kubernetes' printer:
// the first three ports and addresses, then ` + N more...`; `<unset>` for an empty list.
import type { KubeObject } from '../meta.js';
import type { TablePrinter } from '../resource.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { age } from './format.js';
import { at, listAt, stringAt } from './read.js';

const MAX_SHOWN = 3;

function listWithMore(items: string[], count: number): string {
  const text = items.join(',');
  if (count > MAX_SHOWN) return `${text} + ${count - MAX_SHOWN} more...`;
  return text === '' ? '<unset>' : text;
}

/** Port numbers; a port without a number shows its name, or `*` (all ports). */
export function formatSlicePorts(slice: KubeObject): string {
  const ports = listAt(slice, 'ports');
  const shown = ports.slice(0, MAX_SHOWN).map((port) => {
    const number = at(port, 'port');
    if (typeof number === 'number') return String(number);
    return typeof at(port, 'name') === 'string' ? stringAt(port, 'name') : '*';
  });
  return listWithMore(shown, ports.length);
}

/** Every address of every endpoint, ready or not. */
export function formatSliceEndpoints(slice: KubeObject): string {
  const shown: string[] = [];
  let count = 0;
  for (const endpoint of listAt(slice, 'endpoints')) {
    for (const address of listAt(endpoint, 'addresses')) {
      if (shown.length < MAX_SHOWN) shown.push(typeof address === 'string' ? address : '');
      count++;
    }
  }
  return listWithMore(shown, count);
}

export const endpointSlicePrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column(
      'AddressType',
      'string',
      'addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation.',
    ),
    column('Ports', 'string', 'ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name.'),
    column('Endpoints', 'string', 'endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.'),
    AGE_COLUMN,
  ],
  row(slice, now) {
    return [slice.metadata.name ?? '', stringAt(slice, 'addressType'), formatSlicePorts(slice), formatSliceEndpoints(slice), age(slice, now)];
  },
};
