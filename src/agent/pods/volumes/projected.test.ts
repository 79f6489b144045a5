import assert from 'node:assert/strict';
import { mkdtemp, readFile, readlink, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ConfigSource } from '../config-source.js';
import type { ServiceAccountTokenSource } from './service-account-tokens.js';
import { setUpVolumes } from './set-up.js';
import type { Pod } from '../../../api/core/index.js';

const volume = {
  name: 'kube-api-access-abcde',
  projected: {
    defaultMode: 0o644,
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ fieldRef: { fieldPath: 'metadata.namespace' }, path: 'namespace' }] } },
      { secret: { name: 'extra', optional: true } },
    ],
  },
};
const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'dev', uid: 'uid-1' }, spec: { containers: [], volumes: [volume] } };
const sources = {
  configMap: async (_ns: string, name: string) => (name === 'kube-root-ca.crt' ? { data: { 'ca.crt': 'CA PEM' } } : undefined),
  secret: async () => undefined,
} as unknown as ConfigSource;

test('a projected kube-api-access volume: token, ca.crt and namespace in one atomically swapped folder, read-only', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'drover-projected-'));
  try {
    let n = 0;
    const tokens = { token: async () => `token-${++n}` } as unknown as ServiceAccountTokenSource;
    const paths = await setUpVolumes({ dataDir, pod, sources, tokens });
    const dir = paths.get(volume.name)!;
    assert.equal(dir.readOnly, true);
    assert.equal(dir.path, join(dataDir, 'pods', 'uid-1', 'volumes', 'kubernetes.io~projected', volume.name));
    assert.equal(await readFile(join(dir.path, 'token'), 'utf8'), 'token-1');
    assert.equal(await readFile(join(dir.path, 'ca.crt'), 'utf8'), 'CA PEM');
    assert.equal(await readFile(join(dir.path, 'namespace'), 'utf8'), 'dev');
    assert.equal((await stat(join(dir.path, 'token'))).mode & 0o777, 0o644);
    assert.equal(await readlink(join(dir.path, 'token')), join('..data', 'token'));
    const before = await readlink(join(dir.path, '..data'));
    await setUpVolumes({ dataDir, pod, sources, tokens });
    assert.equal(await readFile(join(dir.path, 'token'), 'utf8'), 'token-2');
    assert.notEqual(await readlink(join(dir.path, '..data')), before, 'a new token is a new ..data, swapped in by one rename');
    // Without a token source (an agent that cannot ask), the volume fails to mount, saying why.
    await assert.rejects(setUpVolumes({ dataDir, pod, sources }), /FailedMount|cannot request service account tokens/);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
