import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import { createServer as createTlsServer, request as tlsRequest, Agent as TlsAgent } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { createCertificateAuthority, issueCertificate, loadKeyPair } from '../auth/pki/certificates.js';
import { endWithin, stallDeadline, writeAsRead } from './response-stream.js';

const STALL_MS = 300;
const CHUNK = Buffer.alloc(64 * 1024, 'x');

/**
 * Serves one request with `respond`, from a client that sends it and never reads. Resolves when
 * the server side of the response closes, with how long that took.
 */
async function withNonReader(respond: (res: ServerResponse) => void): Promise<number> {
  let closed!: (ms: number) => void;
  const closedAfter = new Promise<number>((resolve) => (closed = resolve));
  const server = createServer((_req, res) => {
    const started = performance.now();
    res.on('close', () => closed(performance.now() - started));
    respond(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  socket.pause();
  socket.write('GET / HTTP/1.1\r\nHost: test\r\n\r\n');
  try {
    return await closedAfter;
  } finally {
    socket.destroy();
    server.closeAllConnections();
    server.close();
  }
}

describe('response backpressure', () => {
  it('writeAsRead writes everything to a client that reads, slowly or not', async () => {
    let sent = 0;
    const server = createServer((_req, res) => {
      res.writeHead(200);
      void writeAsRead(res, () => (sent++ < 256 ? CHUNK : undefined), STALL_MS).then((ok) => res.end(String(ok)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const reader = res.body!.getReader();
      let bytes = 0;
      let tail = '';
      let reads = 0;
      for (let part = await reader.read(); !part.done; part = await reader.read()) {
        bytes += part.value.byteLength;
        tail = Buffer.from(part.value.subarray(-4)).toString();
        // Slower than the server can write, yet never stalled for the deadline.
        if (++reads % 4 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      }
      assert.equal(bytes, 256 * CHUNK.length + 'true'.length);
      assert.ok(tail.endsWith('true'));
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('writeAsRead produces no more while the socket is full, and cuts a client stalled past the deadline', async () => {
    let produced = 0;
    let result: boolean | undefined;
    const ms = await withNonReader((res) => {
      res.writeHead(200);
      // 64 MB on offer; the socket's kernel buffers take a few MB.
      void writeAsRead(res, () => (produced++ < 1_000 ? CHUNK : undefined), STALL_MS).then((ok) => (result = ok));
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(result, false);
    assert.ok(produced < 200, `${produced} chunks of 64 KB produced for a client that reads nothing`);
    assert.ok(ms >= STALL_MS && ms < STALL_MS + 2_000, `cut after ${ms.toFixed(0)} ms`);
  });

  it('endWithin cuts a client that does not take a body already in memory', async () => {
    const ms = await withNonReader((res) => endWithin(res, Buffer.alloc(32 * 1024 * 1024, 'x'), STALL_MS));
    assert.ok(ms >= STALL_MS && ms < STALL_MS + 2_000, `cut after ${ms.toFixed(0)} ms`);
  });

  it('over TLS, responses the client takes never arm a stall timer', async () => {
    // A TLS write completes after end() returns, so each response is still queued right then:
    // a timer for each would cost every request (a cut client is covered by the cases above).
    const ca = await createCertificateAuthority('response-stream test CA', 1);
    const serving = await issueCertificate({
      ca: { ...(await loadKeyPair(ca.keyPem, ca.certPem)), certPem: ca.certPem },
      subject: { commonName: '127.0.0.1' },
      usage: 'server',
      days: 1,
      altNames: ['127.0.0.1'],
    });
    const body = Buffer.alloc(4 * 1024, 'x');
    const server = createTlsServer({ key: serving.keyPem, cert: serving.certPem }, (_req, res) => endWithin(res, body, STALL_MS));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = new TlsAgent({ keepAlive: true, ca: ca.certPem });
    const realSetTimeout = globalThis.setTimeout;
    let armed = 0;
    const counting = ((...args: Parameters<typeof setTimeout>) => {
      armed++;
      return realSetTimeout(...args);
    }) as typeof setTimeout;
    const get = () =>
      new Promise<number>((resolve, reject) => {
        const req = tlsRequest({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, agent }, (res) => {
          let length = 0;
          res.on('data', (chunk: Buffer) => (length += chunk.length));
          res.on('end', () => resolve(length));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      await get();
      globalThis.setTimeout = counting;
      const lengths = await Promise.all(Array.from({ length: 50 }, get));
      await new Promise((resolve) => setImmediate(resolve));
      globalThis.setTimeout = realSetTimeout;
      assert.deepEqual(new Set(lengths), new Set([body.length]));
      assert.ok(armed < 5, `${armed} timers armed for 50 responses the client took`);
    } finally {
      globalThis.setTimeout = realSetTimeout;
      agent.destroy();
      server.closeAllConnections();
      server.close();
    }
  });

  it('stallDeadline cuts a stream that does not drain', async () => {
    const ms = await withNonReader((res) => {
      const stalled = stallDeadline(res, STALL_MS);
      res.writeHead(200);
      // More than the kernel's socket buffers take, so the socket cannot drain.
      for (let i = 0; i < 1_000; i++) if (!res.write(CHUNK)) stalled();
    });
    assert.ok(ms >= STALL_MS && ms < STALL_MS + 2_000, `cut after ${ms.toFixed(0)} ms`);
  });
});
