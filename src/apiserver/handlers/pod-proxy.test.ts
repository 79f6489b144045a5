import assert from 'node:assert/strict';
import { testSecurity } from '../../../test/support/auth/security.js';
import { connect as tlsConnect } from 'node:tls';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { agentAddressOf, handlePodUpgrade, podProxySubresources } from './pod-proxy.js';
import { callJson, TestServer } from '../../../test/support/apiserver/in-process-server.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

/** An agent that records what reaches it: logs answer text, upgrades answer 101 and echo. */
async function fakeAgent(seen: Seen[]): Promise<Server> {
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    if (req.url?.startsWith('/containerLogs/ns/web/app')) return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('log line\n');
    res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"kind":"Status","status":"Failure","message":"agent says no","code":404}');
  });
  server.on('upgrade', (req, socket, head: Buffer) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n');
    const echo = (chunk: Buffer) => socket.write(Buffer.concat([Buffer.from('echo:'), chunk]));
    if (head.length > 0) echo(head);
    socket.on('data', echo);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** A raw upgrade through the API server; resolves with everything received once `until` matches. */
async function rawUpgrade(port: number, path: string, send: string, until: RegExp): Promise<string> {
  const { admin } = await testSecurity();
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, ca: admin.ca, cert: admin.cert, key: admin.key }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer secret\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n${send}`);
    });
    let received = '';
    const timer = setTimeout(() => reject(new Error(`no ${until} in ${JSON.stringify(received)}`)), 3000);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
      if (!until.test(received)) return;
      clearTimeout(timer);
      socket.destroy();
      resolve(received);
    });
    socket.on('error', reject);
  });
}

describe('pod proxy', () => {
  const seen: Seen[] = [];
  let server: TestServer;
  let agent: Server;

  const call = (method: string, path: string, body?: unknown) => callJson(server.url, method, path, body);

  const pod = (name: string, nodeName: string | undefined, containers: string[]) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { ...(nodeName ? { nodeName } : {}), containers: containers.map((c) => ({ name: c, image: 'img' })) },
  });

  before(async () => {
    server = await TestServer.start({ subresources: podProxySubresources(), onUpgrade: handlePodUpgrade });
    agent = await fakeAgent(seen);
    const port = (agent.address() as { port: number }).port;
    const status = {
      addresses: [
        { type: 'Hostname', address: 'n1' },
        { type: 'InternalIP', address: '127.0.0.1' },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: port } },
    };
    const node = await call('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
    await call('PUT', '/api/v1/nodes/n1/status', { ...node.body, status });
    await call('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'bare' } });
    await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
    for (const [name, node, containers] of [
      ['web', 'n1', ['app']],
      ['duo', 'n1', ['a', 'b']],
      ['loose', undefined, ['c']],
      ['stray', 'bare', ['c']],
      ['lost', 'gone', ['c']],
    ] as const) {
      const created = await call('POST', '/api/v1/namespaces/ns/pods', pod(name, node, [...containers]));
      assert.equal(created.status, 201, JSON.stringify(created.body));
    }
  });
  after(async () => {
    await server.close();
    agent.close();
  });

  it('relays pods/log to the agent, defaulting the only container', async () => {
    const res = await call('GET', '/api/v1/namespaces/ns/pods/web/log?tailLines=5&follow=true&timestamps=1&sinceSeconds=10');
    assert.equal(res.status, 200);
    assert.equal(res.body, 'log line\n');
    assert.equal(seen.at(-1)!.url, '/containerLogs/ns/web/app?follow=true&timestamps=true&tailLines=5&sinceSeconds=10');
  });

  it("answers log requests it cannot place with Kubernetes' errors", async () => {
    const cases: Array<[string, number, string]> = [
      ['/api/v1/namespaces/ns/pods/duo/log', 400, 'a container name must be specified for pod duo, choose one of: [a b]'],
      ['/api/v1/namespaces/ns/pods/web/log?container=zzz', 400, 'container zzz is not valid for pod web'],
      ['/api/v1/namespaces/ns/pods/loose/log', 400, 'pod loose does not have a host assigned'],
      ['/api/v1/namespaces/ns/pods/nope/log', 404, 'pods "nope" not found'],
      ['/api/v1/namespaces/ns/pods/lost/log', 503, 'node "gone" of pod lost is not registered'],
      ['/api/v1/namespaces/ns/pods/web/log?limitBytes=0', 400, 'limitBytes: Invalid value: 0: must be greater than 0'],
      ['/api/v1/namespaces/ns/pods/web/log?sinceSeconds=1&sinceTime=2024-01-01T00:00:00Z', 400, 'at most one of sinceTime or sinceSeconds may be specified'],
    ];
    for (const [path, code, message] of cases) {
      const res = await call('GET', path);
      assert.equal(res.status, code, path);
      assert.equal(res.body.message, message, path);
    }
    const stray = await call('GET', '/api/v1/namespaces/ns/pods/stray/log');
    assert.equal(stray.status, 503);
    assert.equal(stray.body.reason, 'ServiceUnavailable');
    assert.match(stray.body.message, /reports no streaming endpoint/);
    const agentError = await call('GET', '/api/v1/namespaces/ns/pods/duo/log?container=b');
    assert.equal(agentError.status, 404);
    assert.equal(agentError.body.message, 'agent says no');
  });

  it('relays pods/signal as a POST', async () => {
    await call('POST', '/api/v1/namespaces/ns/pods/duo/signal?container=a&signal=SIGUSR1');
    assert.deepEqual([seen.at(-1)!.method, seen.at(-1)!.url], ['POST', '/signal/ns/duo/a?signal=SIGUSR1']);
    assert.equal((await call('POST', '/api/v1/namespaces/ns/pods/web/signal')).status, 400);
    assert.equal((await call('GET', '/api/v1/namespaces/ns/pods/web/signal?signal=TERM')).status, 405);
  });

  it("splices an exec upgrade to the agent's kubelet-style path", async () => {
    const path = '/api/v1/namespaces/ns/pods/web/exec?command=sh&command=-c&command=echo%20hi&stdin=true&stdout=true&tty=false&container=app';
    const received = await rawUpgrade(server.apiServer.port, path, 'ping', /echo:ping/);
    assert.match(received, /^HTTP\/1\.1 101 Switching Protocols/);
    const request = seen.at(-1)!;
    assert.equal(request.url, '/exec/ns/web/app?command=sh&command=-c&command=echo+hi&input=1&output=1');
    assert.equal(request.headers['host'], `127.0.0.1:${(agent.address() as { port: number }).port}`);
    assert.equal(request.headers['authorization'], undefined, "the user's credentials stay with the API server");
    assert.equal(request.headers['upgrade'], 'test');
  });

  it('splices port-forward and attach upgrades', async () => {
    await rawUpgrade(server.apiServer.port, '/api/v1/namespaces/ns/pods/duo/portforward', 'x', /echo:x/);
    assert.equal(seen.at(-1)!.url, '/portForward/ns/duo?');
    await rawUpgrade(server.apiServer.port, '/api/v1/namespaces/ns/pods/duo/attach?container=b&stdout=true', 'y', /echo:y/);
    assert.equal(seen.at(-1)!.url, '/attach/ns/duo/b?output=1');
  });

  it('refuses upgrades it cannot place with a Status response', async () => {
    const noHost = await rawUpgrade(server.apiServer.port, '/api/v1/namespaces/ns/pods/loose/exec?command=ls&stdout=true', '', /\}$/);
    assert.match(noHost, /^HTTP\/1\.1 400 Bad Request/);
    assert.match(noHost, /pod loose does not have a host assigned/);
    const other = await rawUpgrade(server.apiServer.port, '/api/v1/namespaces/ns/pods/web/log', '', /\}$/);
    assert.match(other, /^HTTP\/1\.1 404 Not Found/);
    const plain = await call('POST', '/api/v1/namespaces/ns/pods/web/exec?command=ls');
    assert.equal(plain.status, 400);
    assert.equal(plain.body.message, 'Upgrade request required');
  });

  it('finds the agent by address type preference', () => {
    const node = (addresses: Array<{ type: string; address: string }>, port?: number): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n' },
      status: { addresses, ...(port ? { daemonEndpoints: { kubeletEndpoint: { Port: port } } } : {}) },
    });
    assert.deepEqual(
      agentAddressOf(
        node(
          [
            { type: 'Hostname', address: 'h' },
            { type: 'InternalIP', address: '10.0.0.1' },
          ],
          10250,
        ),
      ),
      { host: '10.0.0.1', port: 10250 },
    );
    assert.deepEqual(agentAddressOf(node([{ type: 'Hostname', address: 'h' }], 1)), { host: 'h', port: 1 });
    assert.equal(agentAddressOf(node([{ type: 'InternalIP', address: '10.0.0.1' }])), undefined);
    assert.equal(agentAddressOf(node([], 10250)), undefined);
  });
});
