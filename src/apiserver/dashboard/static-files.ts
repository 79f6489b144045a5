// The dashboard's files (the single-page app Vite builds into dist/ui at `npm run build`), served
// under /ui/ without authentication: they hold no data, and every request the app makes for data
// carries the user's own token and meets RBAC like any other client.
//
// Hashed assets are immutable and cached for a year; index.html is never cached, so a new build
// is picked up at the next load. A strict Content-Security-Policy keeps any script but the
// bundle's own from running (the app has no inline script), lets the page connect only to this
// server, and frame-ancestors keeps the page out of other sites' frames.
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { methodNotAllowed } from '../errors.js';

export const DASHBOARD_PATH = '/ui/';

/** dist/src/apiserver/dashboard/ → dist/ui/ */
const DEFAULT_ROOT = fileURLToPath(new URL('../../../ui/', import.meta.url));

const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // Scripts stay 'self' only. Styles may be inline because the terminal (xterm.js) writes its
  // theme and cell sizes into <style> elements as it runs; a style cannot run code.
  "style-src 'self' 'unsafe-inline'",
  "base-uri 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** Whether a request path belongs to the dashboard (then serveDashboard answers it). */
export function isDashboardPath(pathname: string): boolean {
  return pathname === '/ui' || pathname.startsWith(DASHBOARD_PATH);
}

export async function serveDashboard(req: IncomingMessage, res: ServerResponse, pathname: string, root = DEFAULT_ROOT): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed(req.method ?? '');
  if (pathname === '/ui') {
    res.writeHead(301, { Location: DASHBOARD_PATH, 'Content-Length': 0 });
    return void res.end();
  }
  const relative = pathname.slice(DASHBOARD_PATH.length);
  // Only files Vite put under assets/ are served by name; every other path is the app's page.
  if (relative.startsWith('assets/')) {
    const file = safeJoin(root, relative);
    const body = file === undefined ? undefined : await readFile(file).catch(() => undefined);
    if (body === undefined) return send(req, res, 404, 'text/plain; charset=utf-8', Buffer.from('not found\n'), 'no-store');
    return send(req, res, 200, TYPES[extname(file!)] ?? 'application/octet-stream', body, 'public, max-age=31536000, immutable');
  }
  const index = await readFile(join(root, 'index.html')).catch(() => undefined);
  if (index === undefined) {
    return send(req, res, 503, 'text/plain; charset=utf-8', Buffer.from('the dashboard is not built: run `npm run build`\n'), 'no-store');
  }
  send(req, res, 200, TYPES['.html']!, index, 'no-cache');
}

/** `relative` inside `root`, or undefined for a path that climbs out of it. */
function safeJoin(root: string, relative: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(relative);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const file = normalize(join(root, decoded));
  return file.startsWith(root.endsWith(sep) ? root : root + sep) ? file : undefined;
}

function send(req: IncomingMessage, res: ServerResponse, code: number, type: string, body: Buffer, cacheControl: string): void {
  res.writeHead(code, {
    'Content-Type': type,
    'Content-Length': body.length,
    'Cache-Control': cacheControl,
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
