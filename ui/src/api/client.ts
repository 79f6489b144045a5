// Every request the dashboard makes: to this origin's Kubernetes API, as the signed-in user.
// A failure becomes an ApiStatusError carrying the API's own Status message, which the pages
// show as it is ("deployments.apps \"web\" is forbidden: User ... cannot patch ...").
import { token } from './session';

export interface Status {
  kind?: string;
  code?: number;
  reason?: string;
  message?: string;
}

export class ApiStatusError extends Error {
  override name = 'ApiStatusError';
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A browser's WebSocket cannot carry an Authorization header: Kubernetes takes the token from this
 * sub-protocol instead (and strips it before anything else sees it).
 */
export function bearerProtocol(): string {
  const bytes = new TextEncoder().encode(token() ?? '');
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `base64url.bearer.authorization.k8s.io.${btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

/** wss:// on this page's own server. */
export function websocketUrl(path: string): string {
  return `wss://${location.host}${path}`;
}

export function authHeaders(extra: Record<string, string> = {}): Record<string, string> {
  const bearer = token();
  return bearer ? { ...extra, Authorization: `Bearer ${bearer}` } : extra;
}

const NETWORK_RETRIES = 3;
const NETWORK_RETRY_MS = 300;

/**
 * A request to the API. Chromium aborts every request in flight when the machine's network
 * interfaces change (ERR_NETWORK_CHANGED), and on a machine that runs containers Docker adds one
 * for each container it starts: a request that never reached an answer is sent again. Every write
 * the dashboard makes is idempotent (a scale to N, a restart stamp fixed before the first try, a
 * rollback guarded by the object's uid), so sending one twice changes nothing.
 */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const request = { ...init, headers: authHeaders((init.headers as Record<string, string>) ?? {}), credentials: 'omit' as const, cache: 'no-store' as const };
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(path, request);
    } catch (error) {
      if (init.signal?.aborted || attempt >= NETWORK_RETRIES || !(error instanceof TypeError)) throw error;
      await new Promise((resolve) => setTimeout(resolve, NETWORK_RETRY_MS));
      continue;
    }
    if (!response.ok) throw await statusError(response);
    return response;
  }
}

export async function getJson<T>(path: string): Promise<T> {
  return (await apiFetch(path, { headers: { Accept: 'application/json' } })).json() as Promise<T>;
}

export async function getText(path: string, accept: string): Promise<string> {
  return (await apiFetch(path, { headers: { Accept: accept } })).text();
}

export type PatchType = 'merge' | 'strategic' | 'json';
const PATCH_TYPES: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  json: 'application/json-patch+json',
};

export async function patch<T>(path: string, body: unknown, type: PatchType = 'merge'): Promise<T> {
  const response = await apiFetch(path, {
    method: 'PATCH',
    body: JSON.stringify(body),
    headers: { 'Content-Type': PATCH_TYPES[type], Accept: 'application/json' },
  });
  return response.json() as Promise<T>;
}

/** The API's Status from a failed response (or a line saying what came instead). */
export async function statusError(response: Response): Promise<ApiStatusError> {
  const text = await response.text().catch(() => '');
  try {
    const status = JSON.parse(text) as Status;
    if (status.kind === 'Status' && status.message) return new ApiStatusError(status.code ?? response.status, status.reason ?? '', status.message);
  } catch {
    // not a Status: fall through
  }
  return new ApiStatusError(response.status, response.statusText, `${response.status} ${response.statusText}${text ? `: ${text.slice(0, 200)}` : ''}`);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads a streamed body (a watch, a followed log) line by line until it ends or `signal` aborts. */
export async function readLines(response: Response, onLine: (line: string) => void): Promise<void> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += value;
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      onLine(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
    }
  }
  if (pending) onLine(pending);
}
