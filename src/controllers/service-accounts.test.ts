// The service-account controller against a real API server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isNotFound, resources, type ApiClient } from '../client/index.js';
import { DEFAULT_SERVICE_ACCOUNT, ServiceAccountsController } from './service-accounts.js';
import { startControllerTest, type ControllerTestBed } from '../../test/support/controllers/controller-test.js';
import { waitFor } from '../../test/support/wait-for.js';

describe('service-account controller', () => {
  let bed: ControllerTestBed;
  let api: ApiClient;

  before(async () => {
    bed = await startControllerTest((ctx) => new ServiceAccountsController(ctx));
    api = bed.api;
  });
  after(() => bed.close());

  const defaultAccount = (namespace: string) =>
    api
      .resource(resources.serviceaccounts, namespace)
      .get(DEFAULT_SERVICE_ACCOUNT)
      .catch((error: unknown) => {
        if (isNotFound(error)) return undefined;
        throw error;
      });

  it('gives the namespaces that exist from the start, and a new one, a default ServiceAccount', async () => {
    for (const namespace of ['default', 'kube-system', 'kube-node-lease']) await waitFor(`default account in ${namespace}`, () => defaultAccount(namespace));
    await api.resource(resources.namespaces).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    const account = await waitFor('default account in team-a', () => defaultAccount('team-a'));
    assert.equal(account.metadata.namespace, 'team-a');
  });

  it('makes it again when it is deleted', async () => {
    const first = await waitFor('default account', () => defaultAccount('default'));
    await api.resource(resources.serviceaccounts, 'default').delete(DEFAULT_SERVICE_ACCOUNT);
    const again = await waitFor('a new default account', async () => {
      const account = await defaultAccount('default');
      return account && account.metadata.uid !== first.metadata.uid ? account : undefined;
    });
    assert.ok(again.metadata.uid);
  });
});
