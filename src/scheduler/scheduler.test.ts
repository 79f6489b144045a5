// The scheduling loop against a real API server, where the server and the loop's cache disagree.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resources, type ApiClient } from '../client/index.js';
import type { Pod } from '../api/core/index.js';
import { useTestServer } from '../../test/support/apiserver/use-test-server.js';
import { pendingPod, readyNode } from '../../test/fixtures/nodes.js';
import { waitFor } from '../../test/support/wait-for.js';
import { startScheduler } from './scheduler.js';

/**
 * The API client, but the pod `name` changes on the server (a label) just before the scheduler's
 * first write of its status: that write meets a newer pod than the scheduler's attempt saw.
 */
function changedBeforeFirstStatusWrite(api: ApiClient, name: string): ApiClient {
  let changed = false;
  return new Proxy(api, {
    get(target, property, receiver) {
      if (property !== 'resource') return Reflect.get(target, property, receiver);
      return (...args: Parameters<ApiClient['resource']>) => {
        const client = target.resource(...args);
        if (args[0] !== resources.pods) return client;
        return new Proxy(client, {
          get(inner, member, innerReceiver) {
            if (member !== 'patch') return Reflect.get(inner, member, innerReceiver);
            return async (...patchArgs: Parameters<typeof client.patch>) => {
              const [podName, , , options] = patchArgs;
              if (!changed && podName === name && options?.subresource === 'status') {
                changed = true;
                await inner.patch(podName, 'merge', { metadata: { labels: { touched: 'yes' } } });
              }
              return inner.patch(...patchArgs);
            };
          },
        });
      };
    },
  });
}

describe('scheduling loop', () => {
  const served = useTestServer();

  it('writes why a pod fits nowhere even when its first write meets a newer pod than the attempt saw', async () => {
    const pods = served.api.resource<Pod>(resources.pods, 'default');
    await served.api.resource(resources.nodes).create(readyNode('small', { cpu: '1' }));
    await served.api.resource(resources.pods, 'default').create(pendingPod('too-big', { cpu: '8' }));
    const scheduler = await startScheduler({ api: changedBeforeFirstStatusWrite(served.api, 'too-big'), unschedulableRetryMs: 600_000 });
    try {
      const pod = await waitFor(
        'PodScheduled=False with the reason',
        async () => {
          const current = await pods.get('too-big');
          return current.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False' && /Insufficient cpu/.test(c.message ?? ''))
            ? current
            : undefined;
        },
        5_000,
      );
      assert.equal(pod.metadata.labels?.['touched'], 'yes', 'the write met the changed pod');
    } finally {
      await scheduler.stop();
    }
  });
});
