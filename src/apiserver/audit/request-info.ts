// What a request is (the same attributes authorization reads, src/auth/request-attributes.ts),
// worked out before routing as kube-apiserver's RequestInfo, because the policy decides the level
// (and so whether RequestReceived is written) before any handler runs.
import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../../auth/types.js';
import { nonResourceAttributes, resourceAttributes } from '../../auth/request-attributes.js';
import { decodePath, parseResourcePath, splitRequestTarget } from '../routes.js';
import type { AuditAttributes, ObjectReference } from './types.js';

/** Kubernetes' long-running requests: their events carry ResponseStarted, and complete when the stream ends. */
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

export function auditAttributes(req: IncomingMessage, user: UserInfo): AuditAttributes {
  const method = (req.method ?? 'GET').toUpperCase();
  try {
    const target = splitRequestTarget(req.url ?? '/');
    const path = parseResourcePath(target.pathname);
    if (path) return resourceAttributes(user, method, path, target.query);
    return nonResourceAttributes(user, method, decodePath(target.pathname));
  } catch {
    // A path the router will refuse (400) is audited as the non-resource request it looks like.
    return nonResourceAttributes(user, method, '/');
  }
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
