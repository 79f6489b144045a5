import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { toApiError } from '../errors.js';
import { writeError } from '../http-io.js';
import { isDashboardPath, serveDashboard } from './static-files.js';

describe('the dashboard files', () => {
  let root: string;
  let server: Server;
  let missing: string;

  const get = (path: string, method = 'GET', from = root) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
      // The path goes as written (a URL object would resolve the dot segments before sending).
      const target = `${path}${path.includes('?') ? '&' : '?'}root=${encodeURIComponent(from)}`;
      const req = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: target, method }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'drover-ui-'));
    missing = join(root, 'not-built');
    await mkdir(join(root, 'assets'));
    await writeFile(join(root, 'index.html'), '<!doctype html><script type="module" src="/ui/assets/app-1234.js"></script>');
    await writeFile(join(root, 'assets', 'app-1234.js'), 'console.log(1)');
    await writeFile(join(root, '..', 'secret-beside-ui'), 'not for you');
    server = createServer((req, res) => {
      const [pathname = '/', query = ''] = (req.url ?? '/').split('?');
      serveDashboard(req, res, pathname, new URLSearchParams(query).get('root')!).catch((error: unknown) => writeError(res, toApiError(error)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  after(async () => {
    server.close();
    await rm(root, { recursive: true, force: true });
    await rm(join(root, '..', 'secret-beside-ui'), { force: true });
  });

  it('serves the page for every app path, never cached, under a CSP that allows only its own scripts', async () => {
    for (const path of ['/ui/', '/ui/anything/deeper']) {
      const page = await get(path);
      assert.equal(page.status, 200);
      assert.match(page.body, /app-1234\.js/);
      assert.equal(page.headers['cache-control'], 'no-cache');
      assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
      const csp = String(page.headers['content-security-policy']);
      assert.match(csp, /default-src 'self'/);
      assert.doesNotMatch(csp, /script-src/, 'scripts fall back to default-src: self only');
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(page.headers['x-content-type-options'], 'nosniff');
    }
  });

  it('serves hashed assets as immutable, HEAD without a body, and only GET/HEAD', async () => {
    const asset = await get('/ui/assets/app-1234.js');
    assert.equal(asset.status, 200);
    assert.equal(asset.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
    const head = await get('/ui/assets/app-1234.js', 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
    assert.equal((await get('/ui/', 'POST')).status, 405);
  });

  it('redirects /ui to /ui/, and answers 404 for unknown or escaping asset paths', async () => {
    const redirect = await get('/ui');
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers['location'], '/ui/');
    assert.equal((await get('/ui/assets/nope.js')).status, 404);
    assert.equal((await get('/ui/assets/..%2f..%2fsecret-beside-ui')).status, 404);
    assert.equal((await get('/ui/assets/%2e%2e/%2e%2e/secret-beside-ui')).status, 404);
  });

  it('says the app is not built (503) rather than serving nothing', async () => {
    const page = await get('/ui/', 'GET', missing);
    assert.equal(page.status, 503);
    assert.match(page.body, /npm run build/);
  });

  it('claims only /ui and what is under /ui/', () => {
    assert.ok(isDashboardPath('/ui'));
    assert.ok(isDashboardPath('/ui/assets/x.js'));
    assert.ok(!isDashboardPath('/uix'));
    assert.ok(!isDashboardPath('/api/v1/ui'));
  });
});
