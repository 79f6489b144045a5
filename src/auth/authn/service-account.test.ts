import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { findResource } from '../../api/registry.js';
import { openTestStore, type TestStore } from '../../../test/support/auth/rbac-store.js';
import { makeSigningKey, signingKeyOf } from '../serviceaccount/signing-key.js';
import { DEFAULT_ISSUER, ServiceAccountTokens } from '../serviceaccount/tokens.js';
import { ServiceAccountAuthenticator } from './service-account.js';

const tokens = new ServiceAccountTokens(signingKeyOf(makeSigningKey()));
let t: TestStore;

before(async () => {
  t = await openTestStore(['dev']);
});
after(async () => t.close());

async function account(name: string) {
  return t.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'dev' } });
}

async function pod(name: string, serviceAccountName: string) {
  return t.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'dev' },
    spec: { serviceAccountName, containers: [{ name: 'c', image: 'busybox' }] },
  } as never);
}

function issue(sa: { metadata: { name?: string; uid?: string } }, bound?: { metadata: { name?: string; uid?: string } }, audiences = [DEFAULT_ISSUER]) {
  return tokens.issue({
    namespace: 'dev',
    serviceAccount: { name: sa.metadata.name!, uid: sa.metadata.uid! },
    audiences,
    expirationSeconds: 3600,
    ...(bound ? { pod: { name: bound.metadata.name!, uid: bound.metadata.uid! } } : {}),
  }).token;
}

describe('service-account token authenticator', () => {
  test('a valid token is the account, its groups and uid; a pod-bound one carries the pod in extra', async () => {
    const authn = new ServiceAccountAuthenticator(tokens, t.store, { cacheMs: 0 });
    const sa = await account('robot');
    const p = await pod('worker', 'robot');
    assert.deepEqual(await authn.authenticateToken(issue(sa)), {
      username: 'system:serviceaccount:dev:robot',
      uid: sa.metadata.uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:dev', 'system:authenticated'],
    });
    const user = await authn.authenticateToken(issue(sa, p));
    assert.deepEqual(user?.extra, { 'authentication.kubernetes.io/pod-name': ['worker'], 'authentication.kubernetes.io/pod-uid': [p.metadata.uid!] });
  });

  test('not ours, or another audience: unknown (the chain goes on, TokenReview says no)', async () => {
    const authn = new ServiceAccountAuthenticator(tokens, t.store, { cacheMs: 0 });
    const sa = await account('aud');
    assert.equal(await authn.authenticateToken('static-token'), undefined);
    assert.equal(await authn.authenticateToken(issue(sa, undefined, ['https://vault.example'])), undefined);
    assert.ok(await authn.authenticateToken(issue(sa, undefined, ['https://vault.example']), ['https://vault.example']));
  });

  test('the account deleted (or deleted and made again) → invalid', async () => {
    const authn = new ServiceAccountAuthenticator(tokens, t.store, { cacheMs: 0 });
    const sa = await account('gone');
    const token = issue(sa);
    assert.ok(await authn.authenticateToken(token));
    const def = findResource('', 'v1', 'serviceaccounts')!;
    await t.registry.delete(def, 'dev', 'gone', { dryRun: false });
    assert.equal(await authn.authenticateToken(token), undefined);
    await account('gone');
    assert.equal(await authn.authenticateToken(token), undefined, 'a new account of the same name is another account');
  });

  test('the bound pod deleted → invalid', async () => {
    const authn = new ServiceAccountAuthenticator(tokens, t.store, { cacheMs: 0 });
    const sa = await account('bound');
    const p = await pod('short-lived', 'bound');
    const token = issue(sa, p);
    assert.ok(await authn.authenticateToken(token));
    // Not on a node: deleted at once.
    await t.registry.delete(findResource('', 'v1', 'pods')!, 'dev', 'short-lived', { dryRun: false, gracePeriodSeconds: 0 });
    assert.equal(await t.store.get('/registry/pods/dev/short-lived'), undefined);
    assert.equal(await authn.authenticateToken(token), undefined);
  });

  test('a verified token is remembered for the cache window only', async () => {
    const authn = new ServiceAccountAuthenticator(tokens, t.store, { cacheMs: 200 });
    const sa = await account('cached');
    const token = issue(sa);
    assert.ok(await authn.authenticateToken(token));
    await t.registry.delete(findResource('', 'v1', 'serviceaccounts')!, 'dev', 'cached', { dryRun: false });
    assert.ok(await authn.authenticateToken(token), 'still cached');
    await new Promise((r) => setTimeout(r, 250));
    assert.equal(await authn.authenticateToken(token), undefined);
  });
});
