// What the audit log reads of a request beyond its attributes (which are authorization's, made
// once per request in server.ts): whether it is long-running, its objectRef, its source.
import type { IncomingMessage } from 'node:http';
import type { AuditAttributes, ObjectReference } from './types.js';

/** Kubernetes' long-running requests: their events carry ResponseStarted, and complete when the stream ends. */
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

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
  for (const part of (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',')) {
    if (part.trim()) ips.push(part.trim());
  }
  const real = req.headers['x-real-ip'];
  if (typeof real === 'string' && real.trim() && !ips.includes(real.trim())) ips.push(real.trim());
  const peer = req.socket?.remoteAddress?.replace(/^::ffff:/, '');
  if (peer && ips[ips.length - 1] !== peer) ips.push(peer);
  return ips;
}
