import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { connect, DEFAULT_CIPHERS } from 'node:tls';
import { describe, it } from 'node:test';
import { testSecurity } from '../../test/support/auth/security.js';
import { SERVING_TLS_OPTIONS, servingCiphers } from './tls-settings.js';

describe('serving TLS settings', () => {
  it('offers exactly Node’s default suites, AES-128-GCM first', () => {
    const ciphers = servingCiphers().split(':');
    assert.deepEqual([...ciphers].sort(), DEFAULT_CIPHERS.split(':').sort());
    assert.deepEqual(ciphers.slice(0, 3), ['TLS_AES_128_GCM_SHA256', 'TLS_CHACHA20_POLY1305_SHA256', 'TLS_AES_256_GCM_SHA384']);
  });

  it('negotiates TLS 1.3 AES-128-GCM with a client that prefers AES-256 (OpenSSL’s order)', async () => {
    const { security, admin } = await testSecurity();
    const server = createServer({ ...security.tls, requestCert: true, rejectUnauthorized: false, ...SERVING_TLS_OPTIONS });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const socket = connect({
        port: (server.address() as AddressInfo).port,
        host: '127.0.0.1',
        servername: 'localhost',
        ca: admin.ca,
        cert: admin.cert,
        key: admin.key,
      });
      await once(socket, 'secureConnect');
      assert.equal(socket.authorized, true);
      assert.equal(socket.getProtocol(), 'TLSv1.3');
      assert.equal(socket.getCipher().standardName, 'TLS_AES_128_GCM_SHA256');
      socket.destroy();
    } finally {
      server.close();
    }
  });

  it('still takes a client that offers only AES-256-GCM', async () => {
    const { security, admin } = await testSecurity();
    const server = createServer({ ...security.tls, requestCert: true, rejectUnauthorized: false, ...SERVING_TLS_OPTIONS });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const socket = connect({
        port: (server.address() as AddressInfo).port,
        host: '127.0.0.1',
        servername: 'localhost',
        ca: admin.ca,
        cert: admin.cert,
        key: admin.key,
        ciphers: 'TLS_AES_256_GCM_SHA384',
      });
      await once(socket, 'secureConnect');
      assert.equal(socket.getCipher().standardName, 'TLS_AES_256_GCM_SHA384');
      socket.destroy();
    } finally {
      server.close();
    }
  });
});
