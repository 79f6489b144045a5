// The local-path StorageClass comes with a new cluster, and a cluster whose administrator deleted
// it does not get it back when its API server restarts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isNotFound, resources } from '../client/index.js';
import { TestServer } from '../../test/support/apiserver/in-process-server.js';

describe('the local-path StorageClass', () => {
  it('is made with a new cluster as k3s ships it, and stays deleted across restarts', async () => {
    const server = await TestServer.start();
    try {
      const classes = () => server.client().resource(resources.storageclasses);
      const made = await classes().get('local-path');
      assert.equal(made['provisioner'], 'rancher.io/local-path');
      assert.equal(made['volumeBindingMode'], 'WaitForFirstConsumer');
      assert.equal(made['reclaimPolicy'], 'Delete');
      assert.equal(made.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'], 'true');
      await server.restart(await server.stop());
      assert.equal((await classes().get('local-path')).metadata.uid, made.metadata.uid);
      await classes().delete('local-path');
      await server.restart(await server.stop());
      await assert.rejects(classes().get('local-path'), (error: unknown) => isNotFound(error));
    } finally {
      await server.close();
    }
  });
});
