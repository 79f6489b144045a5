// Discovery documents (/api, /apis, /apis/{group}, per-group-version resource lists), derived
// from the resource definitions so that kubectl api-resources, short names and `all` work.
import { subresourcesFor } from '../api/registry.js';
import type { ResourceDefinition } from '../api/resource.js';

export const SERVER_VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0-drover.0.1.0',
  gitCommit: 'drover',
  gitTreeState: 'clean',
  buildDate: '2026-11-22T00:00:00Z',
  goVersion: `node${process.versions.node}`,
  compiler: 'tsc',
  platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
};

const serverAddress = [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }];

function groupVersions(defs: readonly ResourceDefinition[]): Map<string, Set<string>> {
  const groups = new Map<string, Set<string>>();
  for (const def of defs) {
    if (def.group === '') continue;
    if (!groups.has(def.group)) groups.set(def.group, new Set());
    groups.get(def.group)!.add(def.version);
  }
  return groups;
}

function groupDocument(group: string, versions: Set<string>) {
  const list = [...versions].map((version) => ({ groupVersion: `${group}/${version}`, version }));
  return { name: group, versions: list, preferredVersion: list[0] };
}

export function apiVersions() {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: serverAddress };
}

export function apiGroupList(defs: readonly ResourceDefinition[]) {
  const groups = [...groupVersions(defs)].map(([group, versions]) => groupDocument(group, versions));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

export function apiGroup(defs: readonly ResourceDefinition[], group: string) {
  const versions = groupVersions(defs).get(group);
  if (!versions) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupDocument(group, versions) };
}

/** The APIResourceList of one group/version, including subresources as `pods/status` entries. */
export function apiResourceList(defs: readonly ResourceDefinition[], group: string, version: string) {
  const matching = defs.filter((d) => d.group === group && d.version === version);
  if (matching.length === 0) return undefined;
  const resources: Record<string, unknown>[] = [];
  for (const def of matching) {
    const entry: Record<string, unknown> = {
      name: def.plural,
      singularName: def.singular,
      namespaced: def.namespaced,
      kind: def.kind,
      verbs: def.verbs,
    };
    if (def.shortNames.length) entry['shortNames'] = def.shortNames;
    if (def.categories.length) entry['categories'] = def.categories;
    resources.push(entry);
    for (const sub of subresourceEntries(def)) resources.push(sub);
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources };
}

/** `pods/status`, `deployments/scale`, ... as discovery lists them. */
function subresourceEntries(def: ResourceDefinition): Record<string, unknown>[] {
  return subresourcesFor(def).map((sub) => {
    const entry: Record<string, unknown> = {
      name: `${def.plural}/${sub.name}`,
      singularName: '',
      namespaced: def.namespaced,
      kind: sub.kind.kind,
      verbs: sub.verbs,
    };
    if (sub.kind.group !== def.group || sub.kind.version !== def.version) {
      entry['group'] = sub.kind.group;
      entry['version'] = sub.kind.version;
    }
    return entry;
  });
}
