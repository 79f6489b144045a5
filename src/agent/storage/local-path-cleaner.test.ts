// The agent's local-path cleaner against a real API server (admission puts pv-protection on every
// volume): the test plays the pv-protection controller, lifting that finalizer once the volume is
// no longer Bound. A volume's directory goes only when pv-protection has let it go and its reclaim
// policy is Delete; a Retain volume is let go with its data kept.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { isNotFound, resources, silentLogger, type ApiClient } from '../../client/index.js';
import { TestServer } from '../../../test/support/apiserver/in-process-server.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { LocalPathCleaner } from './local-path-cleaner.js';

const NODE = 'node-a';

describe('local-path cleaner', () => {
  let server: TestServer;
  let api: ApiClient;
  let dir: string;
  let cleaner: LocalPathCleaner;
  const volumes = () => api.resource(resources.persistentvolumes);
  const gone = (name: string) =>
    volumes()
      .get(name)
      .then(
        () => false,
        (error: unknown) => isNotFound(error),
      );

  /** A volume as the provisioner makes it, its directory made as a pod's first mount makes it. */
  async function provisioned(name: string, policy: 'Delete' | 'Retain', phase: string): Promise<string> {
    const path = join(dir, `${name}_default_claim`);
    await mkdir(path);
    const created = await volumes().create({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: {
        name,
        labels: { 'drover.io/local-path-node': NODE },
        annotations: { 'pv.kubernetes.io/provisioned-by': 'rancher.io/local-path' },
        finalizers: ['drover.io/local-path-directory'],
      },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: policy, hostPath: { path } },
    });
    await volumes().updateStatus({ ...created, status: { phase } } as KubeObject);
    return path;
  }

  /** What the pv-protection controller does once the volume is not Bound. */
  async function releaseProtection(name: string): Promise<void> {
    const volume = await volumes().get(name);
    await volumes().update({
      ...volume,
      metadata: { ...volume.metadata, finalizers: (volume.metadata.finalizers ?? []).filter((f) => f !== 'kubernetes.io/pv-protection') },
    });
  }

  before(async () => {
    server = await TestServer.start();
    api = server.client();
    dir = await mkdtemp(join(tmpdir(), 'drover-local-path-'));
    cleaner = new LocalPathCleaner(api, NODE, dir, silentLogger);
    cleaner.start();
  });
  after(async () => {
    await cleaner.stop();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the directory of a deleted volume while pv-protection holds it Bound', async () => {
    const bound = await provisioned('pvc-bound', 'Delete', 'Bound');
    await volumes().delete('pvc-bound');
    assert.ok((await volumes().get('pvc-bound')).metadata.finalizers?.includes('kubernetes.io/pv-protection'));
    // The cleaner has one worker taking keys in order: once a later volume is cleaned up, it has passed this one.
    const later = await provisioned('pvc-later', 'Delete', 'Released');
    await volumes().delete('pvc-later');
    await releaseProtection('pvc-later');
    await waitFor('the later volume cleaned up', async () => (await gone('pvc-later')) && !existsSync(later), 20_000);
    assert.ok(existsSync(bound), "a Bound volume's data must survive its deletion");
    assert.deepEqual((await volumes().get('pvc-bound')).metadata.finalizers?.sort(), ['drover.io/local-path-directory', 'kubernetes.io/pv-protection']);

    await volumes().updateStatus({ ...(await volumes().get('pvc-bound')), status: { phase: 'Released' } } as KubeObject);
    await releaseProtection('pvc-bound');
    await waitFor('the released volume and its directory gone', async () => (await gone('pvc-bound')) && !existsSync(bound), 20_000);
  });

  it('lets a deleted Retain volume go with its directory kept', async () => {
    const path = await provisioned('pvc-retained', 'Retain', 'Released');
    await volumes().delete('pvc-retained');
    await releaseProtection('pvc-retained');
    await waitFor('the Retain volume gone', () => gone('pvc-retained'), 20_000);
    assert.ok(existsSync(path), "a Retain volume's data must be kept");
  });

  it('keeps the data of a volume local-path did not provision', async () => {
    const path = await provisioned('pvc-adopted', 'Delete', 'Released');
    const volume = await volumes().get('pvc-adopted');
    await volumes().update({ ...volume, metadata: { ...volume.metadata, annotations: {} } });
    await volumes().delete('pvc-adopted');
    await releaseProtection('pvc-adopted');
    await waitFor('the volume gone', () => gone('pvc-adopted'), 20_000);
    assert.ok(existsSync(path));
  });
});
