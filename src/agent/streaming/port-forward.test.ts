import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { FakeRuntime } from '../../../test/support/agent/fake-runtime.js';
import type { PortDialer } from './port-dialer.js';
import { labelResolver } from '../../../test/support/agent/label-resolver.js';
import { startStreamingServer, type StreamingServer } from './streaming-server.js';
import type { TestPeer } from '../../../test/support/agent/spdy-peer.js';
import { spdyUpgrade, tunnelUpgrade } from '../../../test/support/agent/upgrade-client.js';
import type { SessionInfo } from './upgrades.js';

const POD = { uid: 'u1', name: 'web', namespace: 'ns' };
const HOST_POD = { uid: 'u2', name: 'host', namespace: 'ns' };

/** A pod whose port answers "pong:<what it got>"; port 9999 refuses. */
const echoDialer: PortDialer = async (_target, port) => {
  if (port === 9999) throw new Error('connection refused');
  const toPod = new PassThrough();
  const fromPod = new PassThrough();
  toPod.on('data', (chunk: Buffer) => fromPod.write(`pong:${chunk.toString()}`));
  toPod.on('end', () => fromPod.end());
  return { toPod, fromPod, failure: async () => undefined, close: () => undefined };
};

/** One forwarded connection, as kubectl makes it: error stream (half-closed at once), then data. */
async function forwardOnce(peer: TestPeer, port: number, requestId: string, payload: string): Promise<{ data: string; error: string }> {
  const errorId = await peer.open({ streamtype: 'error', port: String(port), requestid: requestId }, true);
  const dataId = await peer.open({ streamtype: 'data', port: String(port), requestid: requestId });
  await peer.until(
    'replies',
    () => peer.frames.filter((f) => f.kind === 'syn_reply_headers' && (f.streamId === errorId || f.streamId === dataId)).length === 2,
  );
  peer.data(dataId, payload, true);
  await peer.until('both streams closed', () => peer.finished(dataId) && peer.finished(errorId));
  return { data: peer.dataOf(dataId).toString(), error: peer.dataOf(errorId).toString() };
}

describe('port-forward', () => {
  const fake = new FakeRuntime();
  const processRuntime = new FakeRuntime('process');
  const sessions: SessionInfo[] = [];
  let server: StreamingServer;
  let hostServer: Server;
  let hostPort: number;

  before(async () => {
    fake.addSandbox(POD, 0, 'exited');
    fake.addSandbox(POD, 1);
    fake.addContainer(POD, 'app', 0);
    processRuntime.addSandbox(HOST_POD, 0);
    const resolver = labelResolver([fake.asRuntime(), processRuntime.asRuntime()]);
    // The default dialer for host-network pods, the fake one for the rest.
    const { defaultPortDialer } = await import('./port-dialer.js');
    const dialPort: PortDialer = (target, port) => (target.dialDirect ? defaultPortDialer(target, port) : echoDialer(target, port));
    server = await startStreamingServer({ port: 0, resolver, dialPort, onSession: (s) => sessions.push(s) });
    hostServer = createServer((socket) => socket.on('data', (d: Buffer) => socket.end(`host:${d.toString()}`)));
    await new Promise<void>((r) => hostServer.listen(0, '127.0.0.1', r));
    hostPort = (hostServer.address() as { port: number }).port;
  });
  after(async () => {
    await server.close();
    hostServer.close();
  });

  it('forwards over a plain SPDY/3.1 upgrade', async () => {
    const { response, peer, socket } = await spdyUpgrade(server.port, 'POST', '/portForward/ns/web', ['portforward.k8s.io']);
    assert.equal(response.status, 101);
    assert.equal(response.headers['x-stream-protocol-version'], 'portforward.k8s.io');
    assert.deepEqual(await forwardOnce(peer, 8080, '0', 'hello'), { data: 'pong:hello', error: '' });
    assert.deepEqual(await forwardOnce(peer, 8080, '1', 'again'), { data: 'pong:again', error: '' });
    assert.deepEqual(sessions.at(-1), { kind: 'portForward', namespace: 'ns', pod: 'web', transport: 'spdy', protocol: 'SPDY/3.1 portforward.k8s.io' });
    socket.destroy();
    peer.close();
  });

  it('forwards through the WebSocket tunnel kubectl 1.32 tries first', async () => {
    const { response, peer, socket } = await tunnelUpgrade(server.port, '/portForward/ns/web');
    assert.equal(response.status, 101);
    assert.equal(response.headers['sec-websocket-protocol'], 'SPDY/3.1+portforward.k8s.io');
    assert.deepEqual(await forwardOnce(peer, 8080, '0', 'tunnelled'), { data: 'pong:tunnelled', error: '' });
    assert.equal(sessions.at(-1)?.protocol, 'SPDY/3.1+portforward.k8s.io');
    socket.destroy();
    peer.close();
  });

  it('reports a port it cannot reach on the error stream', async () => {
    const { peer, socket } = await spdyUpgrade(server.port, 'POST', '/portForward/ns/web', ['portforward.k8s.io']);
    const result = await forwardOnce(peer, 9999, '0', 'x');
    assert.equal(result.data, '');
    assert.equal(result.error, 'error forwarding port 9999 to pod ns/web: connection refused');
    socket.destroy();
    peer.close();
  });

  it('resets streams without a port or stream type', async () => {
    const { peer, socket } = await spdyUpgrade(server.port, 'POST', '/portForward/ns/web', ['portforward.k8s.io']);
    const id = await peer.open({ streamtype: 'data' });
    await peer.until('RST', () => peer.frames.some((f) => f.kind === 'rst_stream' && f.streamId === id));
    socket.destroy();
    peer.close();
  });

  it("reaches host-network pods on the node's loopback", async () => {
    const { peer, socket } = await spdyUpgrade(server.port, 'POST', '/portForward/ns/host', ['portforward.k8s.io']);
    assert.deepEqual(await forwardOnce(peer, hostPort, '0', 'hi'), { data: 'host:hi', error: '' });
    socket.destroy();
    peer.close();
  });

  it('runs exec over SPDY for clients without WebSockets', async () => {
    const path = '/exec/ns/web/app?command=fail&command=2&output=1&error=1';
    const { response, peer, socket } = await spdyUpgrade(server.port, 'POST', path, ['v4.channel.k8s.io', 'v3.channel.k8s.io']);
    assert.equal(response.headers['x-stream-protocol-version'], 'v4.channel.k8s.io');
    const errorId = await peer.open({ streamtype: 'error' });
    const stdoutId = await peer.open({ streamtype: 'stdout' });
    const stderrId = await peer.open({ streamtype: 'stderr' });
    await peer.until('status', () => peer.finished(errorId) && peer.frames.some((f) => f.kind === 'goaway'));
    assert.equal(peer.dataOf(stderrId).toString(), 'oops\n');
    assert.equal(peer.dataOf(stdoutId).toString(), '');
    const status = JSON.parse(peer.dataOf(errorId).toString());
    assert.equal(status.reason, 'NonZeroExitCode');
    assert.equal(status.details.causes[0].message, '2');
    socket.destroy();
    peer.close();
  });

  it('refuses SPDY clients it shares no protocol with, naming what it accepts', async () => {
    const { response } = await spdyUpgrade(server.port, 'POST', '/exec/ns/web/app?command=ls&output=1', ['v3.channel.k8s.io']);
    assert.equal(response.status, 403);
    assert.equal(response.headers['x-accepted-stream-protocol-versions'], 'v5.channel.k8s.io, v4.channel.k8s.io');
    const missing = await spdyUpgrade(server.port, 'POST', '/portForward/ns/nothing', ['portforward.k8s.io']);
    assert.equal(missing.response.status, 404);
    assert.equal(JSON.parse(missing.response.body).message, 'pods "nothing" not found', "the resolver's own words");
  });
});
