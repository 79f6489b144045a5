// The kubectl helper against two clusters that follow each other on one port, as test clusters
// do when a port comes free and is handed out again: the second must not be read through the
// first's discovery. (kubectl caches discovery by host and port for six hours; with the shared
// cache, `kubectl get all` on the second cluster expanded `all` to the first one's custom
// resource and failed, as StatefulSets on drover up once did in CI.)
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { WIDGET_CRD } from '../fixtures/widget-crd.js';
import { freePort } from './free-port.js';
import { kubectl, requireKubectl } from './kubectl.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { waitFor } from './wait-for.js';

const started: ServerProcess[] = [];
after(async () => {
  for (const server of started) await server.stop().then(() => server.cleanup());
});

test('a cluster on a port another cluster had is read through its own discovery, not the one before', { timeout: 120_000 }, async () => {
  requireKubectl();
  const port = await freePort();
  const first = await startServerProcess({ port });
  started.push(first);
  await kubectl(first.kubeconfig, ['apply', '-f', '-'], { input: WIDGET_CRD });
  await waitFor('widgets served', async () => (await kubectl(first.kubeconfig, ['api-resources', '--api-group=shop.example.com'])).includes('widgets'), 20_000);
  // `get all` fills the discovery cache with widgets in the `all` category.
  await kubectl(first.kubeconfig, ['get', 'all']);
  await first.stop();

  const second = await startServerProcess({ port });
  started.push(second);
  assert.match(await kubectl(second.kubeconfig, ['get', 'all']), /service\/kubernetes/);
});
