import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { testServing } from '../../../test/support/auth/security.js';
import { MASTERS_GROUP } from '../../auth/components.js';
import { BEARER_PROTOCOL_PREFIX } from '../../auth/authn/websocket-protocol.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { callJson, TestServer } from '../../../test/support/apiserver/in-process-server.js';

const TOKENS = new Map([
  ['admin-token', { username: 'web-admin', groups: [MASTERS_GROUP] }],
  ['nobody-token', { username: 'nobody', groups: [] }],
]);

const bearer = (token: string) => `${BEARER_PROTOCOL_PREFIX}${Buffer.from(token).toString('base64url')}`;

interface Opened {
  socket: WebSocket;
  messages: Array<{ type: string; object: any }>;
}

describe('watch over a WebSocket, with the token in a sub-protocol', () => {
  let server: TestServer;
  let ca: Buffer;
  const sockets: WebSocket[] = [];

  const open = (path: string, protocols: string[]): Promise<Opened> => {
    const socket = new WebSocket(`${server.url.replace('https', 'wss')}${path}`, protocols, { ca });
    sockets.push(socket);
    const messages: Opened['messages'] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve({ socket, messages }));
      socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      socket.once('error', reject);
    });
  };

  before(async () => {
    const serving = await testServing();
    ca = Buffer.from(serving.tls.ca);
    server = await TestServer.start({ authenticator: serving.authenticator.withTokens([{ authenticateToken: (t) => TOKENS.get(t) }]) });
    await callJson(server.url, 'POST', '/api/v1/namespaces/default/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'first' },
      data: { a: '1' },
    });
  });

  after(async () => {
    for (const socket of sockets) socket.terminate();
    await server.close();
  });

  it('streams the same events as the HTTP watch, one per message; the token is never the chosen protocol', async () => {
    const { socket, messages } = await open('/api/v1/namespaces/default/configmaps?watch=1', [bearer('admin-token'), 'watch']);
    assert.equal(socket.protocol, 'watch');
    const added = await waitFor('the initial ADDED', () => messages.find((m) => m.type === 'ADDED'));
    assert.equal(added.object.metadata.name, 'first');
    const current = await callJson(server.url, 'GET', '/api/v1/namespaces/default/configmaps/first');
    const updated = await callJson(server.url, 'PUT', '/api/v1/namespaces/default/configmaps/first', { ...current.body, data: { a: '2' } });
    assert.equal(updated.status, 200);
    const modified = await waitFor('the MODIFIED event', () => messages.find((m) => m.type === 'MODIFIED'));
    assert.equal(modified.object.data.a, '2');
    assert.equal(modified.object.metadata.resourceVersion, updated.body.metadata.resourceVersion);
  });

  it('a watch from a resourceVersion sends only what changed after it', async () => {
    const list = await callJson(server.url, 'GET', '/api/v1/namespaces/default/configmaps');
    const { messages } = await open(`/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`, [
      bearer('admin-token'),
      'watch',
    ]);
    await callJson(server.url, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'second' } });
    const event = await waitFor('the ADDED of the new one', () => messages.find((m) => m.type === 'ADDED'));
    assert.equal(event.object.metadata.name, 'second');
    assert.equal(messages.length, 1);
  });

  it('refuses a bad token (401), a token alone with no other sub-protocol (401), and a user RBAC does not allow (403)', async () => {
    await assert.rejects(open('/api/v1/configmaps?watch=1', [bearer('wrong'), 'watch']), /HTTP 401/);
    await assert.rejects(open('/api/v1/configmaps?watch=1', [bearer('admin-token')]), /HTTP 401/);
    await assert.rejects(open('/api/v1/configmaps?watch=1', ['watch']), /HTTP 401/);
    await assert.rejects(open('/api/v1/configmaps?watch=1', [bearer('nobody-token'), 'watch']), /HTTP 403/);
  });

  it('a bad request after the handshake comes as an ERROR event with the Status, then the socket closes', async () => {
    const { socket, messages } = await open('/api/v1/configmaps?watch=1&resourceVersion=abc', [bearer('admin-token'), 'watch']);
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    const error = await waitFor('the ERROR event', () => messages.find((m) => m.type === 'ERROR'));
    assert.equal(error.object.code, 400);
    assert.match(error.object.message, /resourceVersion: Invalid value: "abc"/);
    assert.equal(await closed, 1000);
  });

  it('other upgrades still go where they went: a plain upgrade without a handler is a 400', async () => {
    await assert.rejects(open('/api/v1/namespaces/default/configmaps/first', [bearer('admin-token'), 'watch']), /HTTP 400/);
  });
});
