// A real resolver client against the server: busybox's nslookup, where the machine has busybox.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { startDnsServer, type DnsServer } from './server.js';
import { endpoint, MemoryDnsView, ports, service, slice } from '../../../test/support/agent/dns-view.js';

const BUSYBOX = '/bin/busybox';
const skip = existsSync(BUSYBOX) ? false : `${BUSYBOX} is missing`;
const run = promisify(execFile);

let server: DnsServer;
before(async () => {
  const view = new MemoryDnsView()
    .addService(service('default', 'web', { clusterIP: '10.96.0.10', ports: ports({ name: 'http', port: 80, protocol: 'TCP' }) }))
    .addService(
      service('default', 'db', { clusterIP: 'None' }),
      slice('default', 'db', [endpoint('10.1.0.1', { hostname: 'db-0' })], [{ name: 'pg', port: 5432, protocol: 'TCP' }]),
    );
  server = await startDnsServer({ host: '127.0.0.1', port: 0, view, domain: 'cluster.local' });
});
after(async () => {
  await server.close();
});

/** busybox's nslookup takes the server as `host:port`; it exits 1 when the name is not found. */
async function nslookup(type: string, name: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(BUSYBOX, ['nslookup', `-type=${type}`, name, `127.0.0.1:${server.port}`], { timeout: 10_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

test('busybox nslookup resolves a Service, an endpoint, an SRV name, and reports NXDOMAIN', { skip }, async () => {
  const web = await nslookup('a', 'web.default.svc.cluster.local');
  assert.equal(web.code, 0, web.output);
  assert.match(web.output, /Address:\s+10\.96\.0\.10/);
  assert.match((await nslookup('a', 'db-0.db.default.svc.cluster.local')).output, /Address:\s+10\.1\.0\.1/);
  const srv = await nslookup('srv', '_http._tcp.web.default.svc.cluster.local');
  assert.match(srv.output, /0 100 80 web\.default\.svc\.cluster\.local/);
  const missing = await nslookup('a', 'nope.default.svc.cluster.local');
  assert.notEqual(missing.code, 0);
  assert.match(missing.output, /NXDOMAIN/);
});
