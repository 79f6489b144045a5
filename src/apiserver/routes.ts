// Parses request paths into what they address. Kubernetes paths:
//   /api/v1/{plural}[/{name}[/{sub}]]                          cluster-scoped, or all namespaces
//   /api/v1/namespaces/{ns}/{plural}[/{name}[/{sub}]]          namespaced
//   /apis/{group}/{version}/...                                 the same under a named group
//   /api/v1/watch/...                                           legacy watch prefix
import { pathNotFound } from './errors.js';

export interface ResourcePath {
  group: string;
  version: string;
  plural: string;
  namespace?: string;
  name?: string;
  subresource?: string;
  /** The path came in under the legacy /watch/ prefix. */
  legacyWatch: boolean;
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/** Parses /api/... and /apis/... resource paths; undefined when the path is not a resource path. */
export function parseResourcePath(path: string): ResourcePath | undefined {
  const parts = path.split('/').filter((p) => p !== '');
  if (path.includes('%')) parts.forEach((part, i) => (parts[i] = decodeURIComponent(part)));
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else {
    return undefined;
  }
  let legacyWatch = false;
  if (rest[0] === 'watch') {
    legacyWatch = true;
    rest = rest.slice(1);
  }
  const parsed = parseRest(rest);
  if (!parsed) throw pathNotFound(path);
  return { group, version, legacyWatch, ...parsed };
}

function parseRest(rest: string[]): Omit<ResourcePath, 'group' | 'version' | 'legacyWatch'> | undefined {
  if (rest.length === 0 || rest.length > 5) return undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3 && !(rest.length === 3 && NAMESPACE_SUBRESOURCES.has(rest[2]!))) {
    const [, namespace, plural, name, subresource] = rest as [string, string, string, string?, string?];
    return withOptional({ plural, namespace }, name, subresource);
  }
  if (rest.length > 3) return undefined;
  const [plural, name, subresource] = rest as [string, string?, string?];
  return withOptional({ plural }, name, subresource);
}

function withOptional<T extends object>(base: T, name?: string, subresource?: string): T & { name?: string; subresource?: string } {
  const result: T & { name?: string; subresource?: string } = { ...base };
  if (name !== undefined) result.name = name;
  if (subresource !== undefined) result.subresource = subresource;
  return result;
}
