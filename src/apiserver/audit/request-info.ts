// What a request is, worked out before routing as kube-apiserver's RequestInfo does, because
// the policy decides the level (and so whether RequestReceived is written) before any handler
// runs. The router's own verb (ctx.verb) comes too late for that.
import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../../auth/types.js';
import { decodePath, parseResourcePath, splitRequestTarget, type ResourcePath } from '../routes.js';
import type { AuditAttributes, ObjectReference } from './types.js';

const RESOURCE_VERBS: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'patch' };

/** Kubernetes' long-running requests: their events carry ResponseStarted, and complete when the stream ends. */
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

export function auditAttributes(req: IncomingMessage, user: UserInfo): AuditAttributes {
  const method = (req.method ?? 'GET').toUpperCase();
  let pathname = '/';
  let path: ResourcePath | undefined;
  let watch = false;
  try {
    const target = splitRequestTarget(req.url ?? '/');
    pathname = target.pathname;
    path = parseResourcePath(target.pathname);
    watch = path?.legacyWatch === true || ['true', '1'].includes(target.query.get('watch') ?? '');
    pathname = decodePath(pathname);
  } catch {
    // A path the router will refuse (400) is audited as the non-resource request it looks like.
  }
  if (!path) {
    return { user, verb: method.toLowerCase(), resourceRequest: false, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '', path: pathname };
  }
  return {
    user,
    verb: resourceVerb(method, path, watch),
    resourceRequest: true,
    apiGroup: path.group,
    apiVersion: path.version,
    resource: path.plural,
    subresource: path.subresource ?? '',
    namespace: path.namespace ?? '',
    name: path.name ?? '',
    path: pathname,
  };
}

function resourceVerb(method: string, path: ResourcePath, watch: boolean): string {
  if (method === 'GET' || method === 'HEAD') {
    if (watch) return 'watch';
    return path.name === undefined ? 'list' : 'get';
  }
  if (method === 'DELETE') return path.name === undefined ? 'deletecollection' : 'delete';
  return RESOURCE_VERBS[method] ?? method.toLowerCase();
}

export function isLongRunning(attrs: AuditAttributes): boolean {
  return attrs.verb === 'watch' || attrs.verb === 'proxy' || LONG_RUNNING_SUBRESOURCES.has(attrs.subresource);
}

/** The event's objectRef, with Kubernetes' omitempty: no empty strings. */
export function objectRefOf(attrs: AuditAttributes): ObjectReference | undefined {
  if (!attrs.resourceRequest) return undefined;
  const ref: ObjectReference = { resource: attrs.resource };
  if (attrs.namespace) ref.namespace = attrs.namespace;
  if (attrs.name) ref.name = attrs.name;
  if (attrs.apiGroup) ref.apiGroup = attrs.apiGroup;
  ref.apiVersion = attrs.apiVersion;
  if (attrs.subresource) ref.subresource = attrs.subresource;
  return ref;
}

/** X-Forwarded-For, then X-Real-Ip, then the peer, as Kubernetes' utilnet.SourceIPs. */
export function sourceIPs(req: IncomingMessage): string[] {
  const ips: string[] = [];
  const forwarded = req.headers['x-forwarded-for'];
  for (const part of (Array.isArray(forwarded) ? forwarded.join(',') : forwarded ?? '').split(',')) {
    if (part.trim()) ips.push(part.trim());
  }
  const real = req.headers['x-real-ip'];
  if (typeof real === 'string' && real.trim() && !ips.includes(real.trim())) ips.push(real.trim());
  const peer = req.socket?.remoteAddress?.replace(/^::ffff:/, '');
  if (peer && ips[ips.length - 1] !== peer) ips.push(peer);
  return ips;
}
