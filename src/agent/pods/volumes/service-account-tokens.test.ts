import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ApiClient } from '../../../client/index.js';
import { needsRefresh, ServiceAccountTokenSource } from './service-account-tokens.js';
import type { Pod } from '../../../api/core/index.js';

const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'dev', uid: 'u1' }, spec: { serviceAccountName: 'robot', containers: [] } };

/** An ApiClient whose TokenRequests answer with numbered tokens (or fail when told). */
function fakeApi(now: () => number) {
  const requests: Array<{ name: string; sub: string; body: any }> = [];
  let failing = false;
  const api = {
    resource: () => ({
      createSubresource: async (name: string, sub: string, body: any) => {
        requests.push({ name, sub, body });
        if (failing) throw new Error('connection refused');
        return { status: { token: `t${requests.length}`, expirationTimestamp: new Date(now() + body.spec.expirationSeconds * 1000).toISOString() } };
      },
    }),
  } as unknown as ApiClient;
  return { api, requests, fail: (value: boolean) => (failing = value) };
}

describe('pod service-account tokens on the agent', () => {
  test('refresh past 80 % of the life, or past 24 h', () => {
    assert.equal(needsRefresh({ issuedAt: 0, expiresAt: 1000 }, 800), false);
    assert.equal(needsRefresh({ issuedAt: 0, expiresAt: 1000 }, 801), true);
    const day = 24 * 3600 * 1000;
    assert.equal(needsRefresh({ issuedAt: 0, expiresAt: 10 * day }, day + 1), true);
  });

  test('one request per token life: bound to the pod, 3607 s; renewed after 80 %; kept while the API is away', async () => {
    let now = 1_000_000;
    const fake = fakeApi(() => now);
    const source = new ServiceAccountTokenSource(fake.api, () => now);
    assert.equal(await source.token(pod, { expirationSeconds: 3607 }), 't1');
    assert.deepEqual(fake.requests[0], {
      name: 'robot',
      sub: 'token',
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: 'u1' } },
      },
    });
    now += 0.79 * 3607 * 1000;
    assert.equal(await source.token(pod, { expirationSeconds: 3607 }), 't1');
    now += 0.02 * 3607 * 1000;
    fake.fail(true);
    assert.equal(await source.token(pod, { expirationSeconds: 3607 }), 't1', 'the old token while it lasts');
    fake.fail(false);
    assert.equal(await source.token(pod, { expirationSeconds: 3607 }), 't3');
    assert.equal(await source.token(pod, { audience: 'vault', expirationSeconds: 3607 }), 't4', 'another audience is another token');
    assert.deepEqual(fake.requests[3]!.body.spec.audiences, ['vault']);
    fake.fail(true);
    now += 2 * 3607 * 1000;
    await assert.rejects(source.token(pod, { expirationSeconds: 3607 }), /failed to fetch token/);
  });
});
