// A claim's volume on the node: the agent makes a local-path volume's directory only inside its
// own local-path directory and only for a volume pinned to its node; anything else is a
// FailedMount that says why, and no directory is made.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta.js';
import type { ConfigSource } from '../config-source.js';
import { resolveClaim } from './persistent.js';
import { VolumeError } from './source-files.js';
import type { Pod } from '../../../api/core/index.js';

const NODE = 'node-a';
const pod: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default', uid: 'pod-uid' },
  spec: { nodeName: NODE, containers: [], volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] },
};
const claim: KubeObject = {
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'data', namespace: 'default', uid: 'claim-uid' },
  spec: { volumeName: 'pvc-claim-uid' },
  status: { phase: 'Bound' },
};

function localPathVolume(path: string, node: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {
      name: 'pvc-claim-uid',
      labels: { 'drover.io/local-path-node': node },
      annotations: { 'pv.kubernetes.io/provisioned-by': 'rancher.io/local-path' },
    },
    spec: { claimRef: { namespace: 'default', name: 'data', uid: 'claim-uid' }, hostPath: { path, type: 'DirectoryOrCreate' } },
  };
}

/** The API's answers as the agent's ConfigSource reads them: this claim, and the given volume. */
function sourcesWith(volume: KubeObject): ConfigSource {
  return { persistentVolumeClaim: async () => claim, persistentVolume: async () => volume } as unknown as ConfigSource;
}

describe('resolveClaim of a local-path volume', () => {
  let base: string;
  let localPathDir: string;
  before(async () => {
    base = await mkdtemp(join(tmpdir(), 'drover-claim-'));
    localPathDir = join(base, 'storage');
  });
  after(() => rm(base, { recursive: true, force: true }));

  it('makes the directory, world-writable, inside the local-path directory', async () => {
    const path = join(localPathDir, 'pvc-claim-uid_default_data');
    const claimed = await resolveClaim(pod, pod.spec.volumes![0]!, sourcesWith(localPathVolume(path, NODE)), localPathDir);
    assert.equal(claimed.path, path);
    assert.equal(claimed.readOnly, false);
    assert.equal((await stat(path)).mode & 0o777, 0o777);
  });

  it('refuses a path outside the local-path directory, making nothing', async () => {
    const path = join(base, 'elsewhere', 'pvc-claim-uid');
    await assert.rejects(resolveClaim(pod, pod.spec.volumes![0]!, sourcesWith(localPathVolume(path, NODE)), localPathDir), (error: unknown) => {
      assert.ok(error instanceof VolumeError);
      assert.match(
        error.message,
        /MountVolume\.SetUp failed for volume "pvc-claim-uid" : local-path volume's path .*elsewhere.* is not inside this node's local-path directory/,
      );
      return true;
    });
    assert.equal(existsSync(join(base, 'elsewhere')), false);
  });

  it('refuses a path that climbs out of the local-path directory', async () => {
    const path = `${localPathDir}/../escaped`;
    await assert.rejects(
      resolveClaim(pod, pod.spec.volumes![0]!, sourcesWith(localPathVolume(path, NODE)), localPathDir),
      /is not inside this node's local-path directory/,
    );
    assert.equal(existsSync(join(base, 'escaped')), false);
  });

  it('refuses a volume pinned to another node, making nothing', async () => {
    const path = join(localPathDir, 'pvc-other-node');
    await assert.rejects(
      resolveClaim(pod, pod.spec.volumes![0]!, sourcesWith(localPathVolume(path, 'node-b')), localPathDir),
      /pinned to node "node-b", not to this node "node-a"/,
    );
    assert.equal(existsSync(path), false);
  });
});
