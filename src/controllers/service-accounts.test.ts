// The service-account controller against a real API server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isNotFound, resources } from '../client/index.js';
import { DEFAULT_SERVICE_ACCOUNT, ServiceAccountsController } from './service-accounts.js';
import { useControllerTest } from '../../test/support/controllers/controller-test.js';
import { waitFor } from '../../test/support/wait-for.js';

describe('service-account controller', () => {
  const bed = useControllerTest((ctx) => new ServiceAccountsController(ctx));

  const defaultAccount = (namespace: string) =>
    bed.api
      .resource(resources.serviceaccounts, namespace)
      .get(DEFAULT_SERVICE_ACCOUNT)
      .catch((error: unknown) => {
        if (isNotFound(error)) return undefined;
        throw error;
      });

  it('gives the namespaces that exist from the start, and a new one, a default ServiceAccount', async () => {
    for (const namespace of ['default', 'kube-system', 'kube-node-lease']) await waitFor(`default account in ${namespace}`, () => defaultAccount(namespace));
    await bed.api.resource(resources.namespaces).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    const account = await waitFor('default account in team-a', () => defaultAccount('team-a'));
    assert.equal(account.metadata.namespace, 'team-a');
  });

  it('makes it again when it is deleted', async () => {
    const first = await waitFor('default account', () => defaultAccount('default'));
    await bed.api.resource(resources.serviceaccounts, 'default').delete(DEFAULT_SERVICE_ACCOUNT);
    const again = await waitFor('a new default account', async () => {
      const account = await defaultAccount('default');
      return account && account.metadata.uid !== first.metadata.uid ? account : undefined;
    });
    assert.ok(again.metadata.uid);
  });
});
