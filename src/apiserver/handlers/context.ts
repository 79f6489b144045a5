// What one API request carries to the handlers, and the query parameters they share.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResourceDefinition } from '../../api/resource.js';
import type { UserInfo } from '../../auth/types.js';
import type { AccessControl } from '../access.js';
import type { AuditRecorder } from '../audit/types.js';
import { badRequest } from '../errors.js';
import type { ObjectRegistry } from '../registry/object-registry.js';
import type { ResourcePath } from '../routes.js';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  query: URLSearchParams;
  registry: ObjectRegistry;
  /** Set by the router for the metrics label, e.g. 'list', 'watch', 'patch'. */
  verb: string;
  /** Who sent the request, as authentication found. */
  user: UserInfo;
  /** How the server authorizes: reviews answer with it. */
  access: AccessControl;
  /**
   * Annotations for this request's audit event, set by admission whatever the outcome (e.g.
   * pod-security.kubernetes.io/audit-violations); the audit log reads them when the request ends.
   */
  auditAnnotations?: Record<string, string>;
  /** The request's audit entry, when the policy logs it: handlers give it the body they decoded. */
  audit?: AuditRecorder;
}

export interface ResourceRequest extends RequestContext {
  def: ResourceDefinition;
  path: ResourcePath;
}

export function parseBoolean(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw badRequest(`${name}: Invalid value: "${value}": must be true or false`);
}

export function parseNonNegativeInt(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  const number = plainInteger(value);
  if (number === undefined) throw badRequest(`${name}: Invalid value: "${value}": must be a non-negative integer`);
  return number;
}

/**
 * A query value as a non-negative integer, or undefined when it is not one: digits only, as
 * Go's ParseInt takes them (no "1e3", no "0x10"), and within what a double holds exactly, so a
 * larger limit, timeout or revision never reaches SQLite or a timer as a float.
 */
export function plainInteger(value: string): number | undefined {
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(number) ? number : undefined;
}

/** dryRun=All is the only dry-run mode Kubernetes defines. */
export function parseDryRun(query: URLSearchParams): boolean {
  const values = query.getAll('dryRun');
  if (values.length === 0) return false;
  for (const value of values) {
    if (value !== 'All') throw badRequest(`dryRun: Unsupported value: "${value}": supported values: "All"`);
  }
  return true;
}

/** The field manager: ?fieldManager=, else the client's user-agent name, as Kubernetes does. */
export function fieldManagerOf(ctx: RequestContext, required = false): string {
  const explicit = ctx.query.get('fieldManager');
  if (explicit) {
    if (explicit.length > 128) throw badRequest('fieldManager: Too long: may not be more than 128 bytes');
    return explicit;
  }
  if (required) throw badRequest('fieldManager: Required value: is required for apply patch');
  const agent = ctx.req.headers['user-agent'] ?? 'unknown';
  return agent.split('/')[0]!.slice(0, 128) || 'unknown';
}
