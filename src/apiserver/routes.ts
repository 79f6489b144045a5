// Parses request targets into what they address. Kubernetes paths:
//   /api/v1/{plural}[/{name}[/{sub}]]                          cluster-scoped, or all namespaces
//   /api/v1/namespaces/{ns}/{plural}[/{name}[/{sub}]]          namespaced
//   /apis/{group}/{version}/...                                 the same under a named group
//   /api/v1/watch/...                                           legacy watch prefix
//
// The path is never normalised, as in Kubernetes: `.` and `..` are not directions but names,
// and names may not be `.` or `..` (nor hold `/` or `%`), so `…/configmaps/..` is a 400, never
// the namespace above it. The path is split on its literal slashes first and each segment is
// percent-decoded after, so an encoded slash stays inside its segment, and a segment holding one
// names nothing (404): `…/namespaces/x/%2f` is not namespace x.
import { ApiError, badRequest, pathNotFound } from './errors.js';

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

export interface RequestTarget {
  /** The path exactly as sent, still percent-encoded: no dot segment resolved, no slash merged. */
  pathname: string;
  query: URLSearchParams;
}

const SLASH = 0x2f;

/**
 * Splits a request target (`req.url`) into its decoded path and its query. The URL class is
 * not used for the path: it resolves dot segments, which is what let `…/secrets/../../y/…`
 * address another namespace.
 */
export function splitRequestTarget(raw: string): RequestTarget {
  let target = raw;
  const hash = target.indexOf('#');
  if (hash >= 0) target = target.slice(0, hash);
  // An absolute-form target (`GET http://host/path`) addresses the same path; the usual
  // origin-form one starts with its slash and needs no look.
  const authority = target.charCodeAt(0) === SLASH ? null : /^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i.exec(target);
  if (authority) target = target.slice(authority[0].length) || '/';
  const mark = target.indexOf('?');
  const rawPath = mark < 0 ? target : target.slice(0, mark);
  return { pathname: rawPath, query: new URLSearchParams(mark < 0 ? '' : target.slice(mark + 1)) };
}

/** A path or one segment of it, percent-decoded; bad encoding is the client's 400. */
export function decodePath(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badRequest(`the request path is not valid percent-encoding: ${JSON.stringify(raw.slice(0, 200))}`);
  }
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/** Parses a raw /api/... or /apis/... path; undefined when it is not a resource path. */
export function parseResourcePath(path: string): ResourcePath | undefined {
  // Leading and trailing slashes go, as in Kubernetes; an empty segment inside is no path.
  // (Every request passes here: plain index scans, segments decoded only when encoded, and no
  // copies of the segment list.)
  let start = 0;
  let end = path.length;
  while (start < end && path.charCodeAt(start) === SLASH) start++;
  while (end > start && path.charCodeAt(end - 1) === SLASH) end--;
  const split = path.slice(start, end).split('/');
  const parts = path.includes('%') ? split.map(decodePath) : split;
  let group: string;
  let version: string;
  let at: number;
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1]!;
    at = 2;
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    at = 3;
  } else {
    return undefined;
  }
  const legacyWatch = parts[at] === 'watch';
  if (legacyWatch) at++;
  // An empty segment, or an encoded slash inside one (which Kubernetes, decoding first, would see
  // as a step further down), addresses nothing here.
  const parsed = parts.some((part) => part === '' || part.includes('/')) ? undefined : parseRest(parts, at, group, version, legacyWatch);
  if (!parsed) throw pathNotFound(path);
  if (parsed.namespace !== undefined) checkPathSegmentName('Namespace', parsed.namespace);
  if (parsed.name !== undefined) checkPathSegmentName('Name', parsed.name);
  return parsed;
}

/** The segments from `at` on: [namespaces/<namespace>/]<plural>[/<name>[/<subresource>]]. */
function parseRest(parts: string[], at: number, group: string, version: string, legacyWatch: boolean): ResourcePath | undefined {
  const count = parts.length - at;
  if (count === 0 || count > 5) return undefined;
  let path: ResourcePath;
  if (parts[at] === 'namespaces' && count >= 3 && !(count === 3 && NAMESPACE_SUBRESOURCES.has(parts[at + 2]!))) {
    path = { group, version, legacyWatch, plural: parts[at + 2]!, namespace: parts[at + 1]! };
    at += 3;
  } else {
    if (count > 3) return undefined;
    path = { group, version, legacyWatch, plural: parts[at]! };
    at += 1;
  }
  if (at < parts.length) path.name = parts[at]!;
  if (at + 1 < parts.length) path.subresource = parts[at + 1]!;
  return path;
}

/** Kubernetes' IsValidPathSegmentName: what may stand as a name or namespace in a path. */
function checkPathSegmentName(what: 'Name' | 'Namespace', value: string): void {
  const dots = value === '.' || value === '..';
  const percent = value.includes('%');
  if (!dots && !percent) return;
  const problems = [...(dots ? [`may not be '${value}'`] : []), ...(percent ? [`may not contain '%'`] : [])];
  throw new ApiError(400, 'BadRequest', `${what} parameter invalid: ${JSON.stringify(value)}: ${problems.join(';')}`);
}
