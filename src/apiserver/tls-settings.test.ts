import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { connect, DEFAULT_CIPHERS, type TLSSocket } from 'node:tls';
import { describe, it } from 'node:test';
import { testSecurity } from '../../test/support/auth/security.js';
import { SERVING_TLS_OPTIONS, servingCiphers } from './tls-settings.js';

/**
 * Connects as the admin to an HTTPS server with the API server's TLS settings, offering
 * `ciphers` (Node's default list when undefined); `check` sees the connected socket.
 */
async function withServingConnection(ciphers: string | undefined, check: (socket: TLSSocket) => void): Promise<void> {
  const { security, admin } = await testSecurity();
  const server = createServer({ ...security.tls, requestCert: true, rejectUnauthorized: false, ...SERVING_TLS_OPTIONS });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const port = (server.address() as AddressInfo).port;
    const socket = connect({
      port,
      host: '127.0.0.1',
      servername: 'localhost',
      ca: admin.ca,
      cert: admin.cert,
      key: admin.key,
      ...(ciphers ? { ciphers } : {}),
    });
    await once(socket, 'secureConnect');
    try {
      check(socket);
    } finally {
      socket.destroy();
    }
  } finally {
    server.close();
  }
}

describe('serving TLS settings', () => {
  it('offers exactly Node’s default suites, AES-128-GCM first', () => {
    const ciphers = servingCiphers().split(':');
    assert.deepEqual([...ciphers].sort(), DEFAULT_CIPHERS.split(':').sort());
    assert.deepEqual(ciphers.slice(0, 3), ['TLS_AES_128_GCM_SHA256', 'TLS_CHACHA20_POLY1305_SHA256', 'TLS_AES_256_GCM_SHA384']);
  });

  it('negotiates TLS 1.3 AES-128-GCM with a client that prefers AES-256 (OpenSSL’s order)', async () => {
    await withServingConnection(undefined, (socket) => {
      assert.equal(socket.authorized, true);
      assert.equal(socket.getProtocol(), 'TLSv1.3');
      assert.equal(socket.getCipher().standardName, 'TLS_AES_128_GCM_SHA256');
    });
  });

  it('still takes a client that offers only AES-256-GCM', async () => {
    await withServingConnection('TLS_AES_256_GCM_SHA384', (socket) => {
      assert.equal(socket.getCipher().standardName, 'TLS_AES_256_GCM_SHA384');
    });
  });
});
