// The audit log of the API server: one JSON line per stage of every request the policy selects,
// in Kubernetes' audit.k8s.io/v1 Event format. server.ts opens an entry per request and closes
// it when the handler returns; the entry writes its events (RequestReceived, ResponseStarted for
// long-running requests, then ResponseComplete or Panic) to the log file's queue.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { UserInfo } from '../../auth/types.js';
import type { ApiError } from '../errors.js';
import type { RequestContext } from '../handlers/context.js';
import { AuditLogFile } from './log-file.js';
import { DEFAULT_POLICY, evaluatePolicy, loadPolicyFile } from './policy.js';
import { isLongRunning, objectRefOf, sourceIPs } from './request-info.js';
import { captureResponses, type ResponseBody } from './response-capture.js';
import {
  levelAtLeast,
  type AuditAttributes,
  type AuditEvent,
  type AuditRecorder,
  type Policy,
  type RequestAuditConfig,
  type ResponseStatus,
  type Stage,
} from './types.js';

export interface AuditOptions {
  /** The log file (kube-apiserver's --audit-log-path). */
  logPath: string;
  /** An audit.k8s.io/v1 Policy; without one every request is logged at Metadata. */
  policyFile?: string;
  /** Rotate at this size, in megabytes (default 100; 0: never). */
  maxSizeMB?: number;
  /** Rotated files kept (default 10; 0: all). */
  maxBackups?: number;
}

export class Auditor {
  /** Entries waiting for their stream to end (watches, upgrades): completed at close at the latest. */
  readonly streaming = new Set<AuditEntry>();

  private constructor(
    private readonly policy: Policy,
    private readonly file: AuditLogFile,
  ) {}

  /** Reads the policy first, so a malformed one stops the server before it serves anything. */
  static async open(options: AuditOptions): Promise<Auditor> {
    const policy = options.policyFile ? await loadPolicyFile(options.policyFile) : DEFAULT_POLICY;
    const file = await AuditLogFile.open(options.logPath, {
      maxSizeBytes: Math.round((options.maxSizeMB ?? 100) * 1024 * 1024),
      maxBackups: options.maxBackups ?? 10,
    });
    return new Auditor(policy, file);
  }

  /**
   * Opens the entry of an API request (after authentication: the policy matches on the sender,
   * `attrs.user`), or nothing when the policy does not log it. Sets ctx.audit for the handlers.
   */
  begin(ctx: RequestContext, attrs: AuditAttributes): AuditEntry | undefined {
    const config = evaluatePolicy(this.policy, attrs);
    if (config.level === 'None') return undefined;
    const entry = new AuditEntry(this, ctx.req, attrs, config, () => ctx.auditAnnotations);
    ctx.audit = entry;
    ctx.res.setHeader('Audit-Id', entry.auditID);
    if (levelAtLeast(config.level, 'RequestResponse')) captureResponses(ctx.res, (body) => entry.responseObject(body));
    if (isLongRunning(attrs)) watchResponseStart(ctx.res, (code) => entry.responseStarted(code));
    entry.received();
    return entry;
  }

  /**
   * Audits an upgraded request (pods/exec, attach, portforward): its answer is the agent's,
   * spliced byte for byte, so the status is read from the first bytes that go back to the client.
   */
  beginUpgrade(req: IncomingMessage, socket: Duplex, attrs: AuditAttributes, actingUser: UserInfo): void {
    const config = evaluatePolicy(this.policy, attrs);
    if (config.level === 'None') return;
    const entry = new AuditEntry(this, req, attrs, config, () => undefined);
    if (actingUser !== attrs.user) entry.impersonated(actingUser);
    entry.received();
    watchSocketStatus(socket, (code) => entry.responseStarted(code));
    this.streaming.add(entry);
    socket.once('close', () => entry.complete());
  }

  write(event: AuditEvent, extra: string): void {
    const json = JSON.stringify(event);
    this.file.write(extra ? `${json.slice(0, -1)}${extra}}` : json);
  }

  /** Writes every queued event; call after the server stopped answering. */
  async close(): Promise<void> {
    // The server's close() destroyed the streams still open, but a socket says 'close' only
    // some ticks later: their ResponseComplete is written now, before the file closes.
    for (const entry of this.streaming) entry.complete();
    await this.file.close();
  }
}

export class AuditEntry implements AuditRecorder {
  readonly auditID: string;
  private readonly receivedAt = microTime();
  private readonly objectRef;
  /** Read at once: by the time a late stage is written the peer may have closed its socket. */
  private readonly sourceIPs: string[];
  private requestJson: string | undefined;
  private responseJson: string | undefined;
  private status: ResponseStatus | undefined;
  private code: number | undefined;
  private panicked = false;
  private impersonatedUser: UserInfo | undefined;
  private done = false;

  constructor(
    private readonly auditor: Auditor,
    private readonly req: IncomingMessage,
    private readonly attrs: AuditAttributes,
    private readonly config: RequestAuditConfig,
    private readonly annotations: () => Record<string, string> | undefined,
  ) {
    const given = req.headers['audit-id'];
    this.auditID = typeof given === 'string' && given !== '' ? given : randomUUID();
    this.objectRef = objectRefOf(attrs);
    this.sourceIPs = sourceIPs(req);
  }

  received(): void {
    this.emit('RequestReceived');
  }

  /** The user the request acts as (impersonation), recorded beside the one who sent it. */
  impersonated(user: UserInfo): void {
    this.impersonatedUser = user;
  }

  /** A create names its object only in the body; at Request level and above the body is kept, as sent. */
  requestObject(value: unknown): void {
    const meta = isRecord(value) && isRecord(value['metadata']) ? value['metadata'] : undefined;
    if (this.objectRef && meta) {
      if (!this.objectRef.name && typeof meta['name'] === 'string' && meta['name']) this.objectRef.name = meta['name'];
      if (!this.objectRef.namespace && typeof meta['namespace'] === 'string' && meta['namespace']) this.objectRef.namespace = meta['namespace'];
    }
    if (levelAtLeast(this.config.level, 'Request')) this.requestJson = this.serialize(value);
  }

  responseObject(body: ResponseBody): void {
    if ('value' in body) this.responseJson = this.serialize(body.value);
    else {
      const text = typeof body.json === 'string' ? body.json : Buffer.from(body.json).toString('utf8');
      this.responseJson = this.config.omitManagedFields ? this.serialize(JSON.parse(text)) : text;
    }
  }

  responseStarted(code: number): void {
    this.code = code;
    this.emit('ResponseStarted');
  }

  /** The request failed with this error; a panic is a 500 the handlers did not mean to give. */
  fail(error: ApiError, panic: boolean): void {
    this.panicked = panic;
    const status = error.toStatus() as { status?: string; message?: string; reason?: string };
    this.status = { metadata: {}, code: error.code };
    if (status.status) this.status.status = status.status;
    if (panic) this.status.message = `APIServer panic'd: ${error.message}`;
    else if (status.message) this.status.message = status.message;
    if (status.reason) this.status.reason = status.reason;
  }

  /** The handler returned: the event is written once the response is fully sent (a watch: when it ends). */
  end(res: ServerResponse): void {
    if (res.writableFinished || res.destroyed) return this.complete(res.statusCode);
    this.auditor.streaming.add(this);
    res.once('close', () => this.complete(res.statusCode));
  }

  complete(code?: number): void {
    if (this.done) return;
    this.done = true;
    this.auditor.streaming.delete(this);
    if (code !== undefined && !this.status) this.code = code;
    this.emit(this.panicked ? 'Panic' : 'ResponseComplete');
  }

  private emit(stage: Stage): void {
    if (this.config.omitStages.has(stage)) return;
    const agent = this.req.headers['user-agent'];
    const status = stage === 'RequestReceived' ? undefined : (this.status ?? (this.code === undefined ? undefined : { metadata: {}, code: this.code }));
    const annotations = this.annotations();
    const event: AuditEvent = {
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: this.config.level,
      auditID: this.auditID,
      stage,
      requestURI: this.req.url ?? '/',
      verb: this.attrs.verb,
      user: this.attrs.user,
      ...(this.impersonatedUser ? { impersonatedUser: this.impersonatedUser } : {}),
      sourceIPs: this.sourceIPs,
      ...(agent ? { userAgent: agent } : {}),
      ...(this.objectRef ? { objectRef: { ...this.objectRef } } : {}),
      ...(status ? { responseStatus: status } : {}),
      requestReceivedTimestamp: this.receivedAt,
      stageTimestamp: stage === 'RequestReceived' ? this.receivedAt : microTime(),
      ...(annotations && Object.keys(annotations).length > 0 ? { annotations: { ...annotations } } : {}),
    };
    // The objects are spliced in as the JSON they already are, never parsed and written again.
    let extra = '';
    if (this.requestJson !== undefined && stage !== 'RequestReceived') extra += `,"requestObject":${this.requestJson}`;
    if (this.responseJson !== undefined && (stage === 'ResponseComplete' || stage === 'Panic')) extra += `,"responseObject":${this.responseJson}`;
    this.auditor.write(event, extra);
  }

  private serialize(value: unknown): string {
    if (this.config.omitManagedFields && isRecord(value) && isRecord(value['metadata']) && 'managedFields' in value['metadata']) {
      const { managedFields: _, ...metadata } = value['metadata'];
      return JSON.stringify({ ...value, metadata });
    }
    return JSON.stringify(value) ?? 'null';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 3339 with microseconds, as Kubernetes' MicroTime: 2026-11-25T21:00:00.123456Z. */
export function microTime(): string {
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  const iso = new Date(Math.floor(micros / 1000)).toISOString();
  return `${iso.slice(0, 19)}.${String(micros % 1_000_000).padStart(6, '0')}Z`;
}

/** Calls `started` when the response's head goes out (every path to it passes writeHead). */
function watchResponseStart(res: ServerResponse, started: (code: number) => void): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    res.writeHead = writeHead;
    started(typeof args[0] === 'number' ? args[0] : res.statusCode);
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof res.writeHead;
}

/** Calls `started` with the status of the first bytes written back on an upgraded socket. */
function watchSocketStatus(socket: Duplex, started: (code: number) => void): void {
  const { write, end } = socket;
  let seen = false;
  const look = (chunk: unknown) => {
    if (seen) return;
    seen = true;
    socket.write = write;
    socket.end = end;
    const head = typeof chunk === 'string' ? chunk.slice(0, 32) : Buffer.isBuffer(chunk) ? chunk.subarray(0, 32).toString('latin1') : '';
    const code = /^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1];
    started(code ? Number(code) : 0);
  };
  socket.write = function (this: Duplex, chunk: unknown, ...rest: unknown[]) {
    look(chunk);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof socket.write;
  socket.end = function (this: Duplex, chunk?: unknown, ...rest: unknown[]) {
    if (chunk !== undefined && typeof chunk !== 'function') look(chunk);
    return (end as (...a: unknown[]) => Duplex).call(this, chunk, ...rest);
  } as typeof socket.end;
}
