import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { FakeRuntime } from '../../../test/support/agent/fake-runtime.js';
import { labelResolver } from '../../../test/support/agent/label-resolver.js';
import { tunnelUpgrade } from '../../../test/support/agent/upgrade-client.js';
import { ResolveError, type ContainerResolver } from './resolver.js';
import { startStreamingServer, type StreamingServer } from './streaming-server.js';
import type { SessionInfo } from './upgrades.js';

const POD = { uid: 'u1', name: 'web', namespace: 'ns' };

interface WsResult {
  messages: Buffer[];
  protocol: string;
  closeCode: number;
}

/** Runs a WebSocket session to its end; `onOpen` may send messages. */
function wsSession(url: string, protocols: string[], onOpen: (ws: WebSocket) => void = () => undefined): Promise<WsResult> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols);
    const messages: Buffer[] = [];
    ws.on('open', () => onOpen(ws));
    ws.on('message', (data) => messages.push(data as Buffer));
    ws.on('close', (code) => resolve({ messages, protocol: ws.protocol, closeCode: code }));
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => reject(Object.assign(new Error(`HTTP ${res.statusCode}: ${body}`), { status: res.statusCode, body })));
    });
    ws.on('error', reject);
  });
}

function channel(messages: Buffer[], id: number): string {
  return Buffer.concat(messages.filter((m) => m[0] === id).map((m) => m.subarray(1))).toString();
}

function status(messages: Buffer[]): any {
  return JSON.parse(channel(messages, 3));
}

describe('streaming server', () => {
  const fake = new FakeRuntime();
  const sessions: SessionInfo[] = [];
  let server: StreamingServer;
  let ws: string;

  before(async () => {
    fake.addContainer(POD, 'app', 0, new Date(1000));
    fake.addContainer(POD, 'app', 1, new Date(2000));
    fake.addContainer(POD, 'side', 0, new Date(3000));
    server = await startStreamingServer({ port: 0, resolver: labelResolver(fake.asRuntime()), onSession: (s) => sessions.push(s) });
    ws = server.url.replace('http', 'ws');
  });
  after(() => server.close());

  it("streams a container log with the kubelet's parameters", async () => {
    const res = await fetch(`${server.url}/containerLogs/ns/web/app?tailLines=2&timestamps=true&follow=true&sinceSeconds=60`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/plain/);
    assert.equal(await res.text(), fake.logText);
    const call = fake.logCalls.at(-1)!;
    assert.equal(call.id, 'app-u1-1');
    assert.equal(call.options.tail, 2);
    assert.equal(call.options.follow, true);
    assert.equal(call.options.timestamps, true);
    assert.ok(call.options.since && Date.now() - call.options.since.getTime() >= 59_000);
  });

  it('reads the previous attempt, cuts at limitBytes and explains what is missing', async () => {
    await fetch(`${server.url}/containerLogs/ns/web/app?previous=true`).then((r) => r.text());
    assert.equal(fake.logCalls.at(-1)!.id, 'app-u1-0');
    assert.equal(await (await fetch(`${server.url}/containerLogs/ns/web/app?limitBytes=8`)).text(), 'line 1\nl');
    const missing = await fetch(`${server.url}/containerLogs/ns/web/nope`);
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).message, 'container "nope" not found in pod "web"', "the resolver's own words");
    const noPrevious = await fetch(`${server.url}/containerLogs/ns/web/side?previous=true`);
    assert.equal(noPrevious.status, 400);
    assert.equal((await noPrevious.json()).message, 'previous terminated container "side" in pod "web" not found');
    const bad = await fetch(`${server.url}/containerLogs/ns/web/app?sinceSeconds=5&sinceTime=2024-01-01T00:00:00Z`);
    assert.equal(bad.status, 400);
  });

  it('sends signals to a container', async () => {
    const ok = await fetch(`${server.url}/signal/ns/web/app?signal=usr1`, { method: 'POST' });
    assert.equal(ok.status, 200);
    assert.deepEqual(fake.kills.at(-1), { id: 'app-u1-1', signal: 'SIGUSR1' });
    assert.equal((await fetch(`${server.url}/signal/ns/web/app?signal=SIGNOPE`, { method: 'POST' })).status, 400);
    assert.equal((await fetch(`${server.url}/signal/ns/web/ghost?signal=TERM`, { method: 'POST' })).status, 404);
    assert.equal((await fetch(`${server.url}/signal/ns/web/app?signal=TERM`)).status, 405);
  });

  it('runs exec over v5.channel.k8s.io, with the exit code on the error channel', async () => {
    const result = await wsSession(`${ws}/exec/ns/web/app?command=fail&command=3&output=1&error=1`, ['v5.channel.k8s.io', 'v4.channel.k8s.io']);
    assert.equal(result.protocol, 'v5.channel.k8s.io');
    assert.equal(result.closeCode, 1000);
    assert.ok(
      result.messages.every((m) => m.length > 1 || m[0] === 255),
      'no empty message opens a v5 session',
    );
    assert.equal(channel(result.messages, 2), 'oops\n');
    const outcome = status(result.messages);
    assert.equal(outcome.status, 'Failure');
    assert.equal(outcome.reason, 'NonZeroExitCode');
    assert.deepEqual(outcome.details.causes, [{ reason: 'ExitCode', message: '3' }]);
    assert.deepEqual(fake.execCalls.at(-1)!.options, { cmd: ['fail', '3'], stdin: false, tty: false });
    assert.deepEqual(sessions.at(-1), { kind: 'exec', namespace: 'ns', pod: 'web', container: 'app', transport: 'websocket', protocol: 'v5.channel.k8s.io' });
  });

  it("feeds stdin and ends it at the client's CLOSE message (v5)", async () => {
    const result = await wsSession(`${ws}/exec/ns/web/app?command=cat&input=1&output=1`, ['v5.channel.k8s.io'], (conn) => {
      conn.send(Buffer.from([0, ...Buffer.from('hello ')]));
      conn.send(Buffer.from([0, ...Buffer.from('world')]));
      conn.send(Buffer.from([255, 0]));
    });
    assert.equal(channel(result.messages, 1), 'hello world');
    assert.equal(status(result.messages).status, 'Success');
  });

  it('speaks v4.channel.k8s.io to clients that offer only it, and passes resizes on', async () => {
    const result = await wsSession(`${ws}/exec/ns/web/app?command=echo&command=hi&stdout=true&tty=true`, ['v4.channel.k8s.io'], (conn) => {
      conn.send(Buffer.concat([Buffer.from([4]), Buffer.from('{"Width":100,"Height":40}')]));
    });
    assert.equal(result.protocol, 'v4.channel.k8s.io');
    assert.deepEqual(result.messages[0], Buffer.from([1]), 'an empty message opens a v4 session, as the kubelet sends');
    assert.equal(channel(result.messages, 1), 'hi\n');
    assert.equal(status(result.messages).status, 'Success');
    assert.equal(fake.execCalls.at(-1)!.options.tty, true);
  });

  it("attaches to a container's output", async () => {
    const result = await wsSession(`${ws}/attach/ns/web/app?output=1`, ['v5.channel.k8s.io']);
    assert.equal(channel(result.messages, 1), 'attached output\n');
    assert.equal(status(result.messages).status, 'Success');
  });

  it('answers what it cannot serve with a Status before any upgrade', async () => {
    const refusals: Array<[string, string[], number, RegExp]> = [
      [`${ws}/exec/ns/web/app?command=ls&output=1`, ['v3.channel.k8s.io'], 400, /unable to negotiate/],
      [`${ws}/exec/ns/web/ghost?command=ls&output=1`, ['v5.channel.k8s.io'], 404, /container "ghost" not found in pod "web"/],
      [`${ws}/exec/ns/web/app?output=1`, ['v5.channel.k8s.io'], 400, /at least one command/],
      [`${ws}/exec/ns/web/app?command=ls`, ['v5.channel.k8s.io'], 400, /at least 1 of stdin, stdout, stderr/],
    ];
    for (const [url, protocols, code, message] of refusals) {
      await assert.rejects(wsSession(url, protocols), (error: { status?: number; body?: string }) => {
        assert.equal(error.status, code, url);
        assert.match(JSON.parse(error.body ?? '{}').message, message);
        return true;
      });
    }
    const plain = await fetch(`${server.url}/exec/ns/web/app?command=ls&output=1`);
    assert.equal(plain.status, 400);
    assert.equal((await plain.json()).message, 'Upgrade request required');
  });

  it("answers with a resolver's ResolveError: its HTTP code and its words", async () => {
    const waiting = 'container "x" in pod "web" is waiting to start: ContainerCreating';
    const noSandbox = 'pod web has no running sandbox';
    const resolver: ContainerResolver = {
      resolve: async () => {
        throw new ResolveError(400, waiting);
      },
      resolveSandbox: async () => {
        throw new ResolveError(400, noSandbox);
      },
    };
    const refusing = await startStreamingServer({ port: 0, resolver });
    const badRequest = (message: string) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });
    try {
      for (const res of [
        await fetch(`${refusing.url}/containerLogs/ns/web/x`),
        await fetch(`${refusing.url}/signal/ns/web/x?signal=TERM`, { method: 'POST' }),
      ]) {
        assert.equal(res.status, 400);
        assert.deepEqual(await res.json(), badRequest(waiting));
      }
      const exec = wsSession(`${refusing.url.replace('http', 'ws')}/exec/ns/web/x?command=ls&output=1`, ['v5.channel.k8s.io']);
      await assert.rejects(exec, (error: { status?: number; body?: string }) => {
        assert.equal(error.status, 400);
        assert.deepEqual(JSON.parse(error.body ?? '{}'), badRequest(waiting));
        return true;
      });
      const forward = await tunnelUpgrade(refusing.port, '/portForward/ns/web');
      forward.socket.destroy();
      assert.equal(forward.response.status, 400);
      assert.deepEqual(JSON.parse(forward.response.body), badRequest(noSandbox));
    } finally {
      await refusing.close();
    }
  });
});
