// LimitRange and ResourceQuota end to end, through the real kubectl: defaults filled into pods,
// pods outside a LimitRange refused with Kubernetes' message, a quota refusing the pod too many
// and freeing after a delete, concurrent creates that never overshoot, and `kubectl describe
// quota`. Pods stay Pending (no agent): admission and the quota controller are all that run.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useCluster } from './support/cluster-fixture.js';
import { waitFor } from './support/wait-for.js';

const cluster = useCluster();

function podYaml(name: string, namespace: string, resources = ''): string {
  return `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  containers:
  - name: app
    image: drover-test/busybox:1
${resources}
`;
}

function podJson(name: string, resources: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'app', image: 'drover-test/busybox:1', resources }] } };
}

describe('discovery and explain', () => {
  it("lists both kinds with Kubernetes' short names and explains their fields", async () => {
    const resources = await cluster.kubectl(['api-resources']);
    assert.match(resources, /^limitranges\s+limits\s+v1\s+true\s+LimitRange$/m);
    assert.match(resources, /^resourcequotas\s+quota\s+v1\s+true\s+ResourceQuota$/m);
    assert.match(await cluster.kubectl(['explain', 'limitrange.spec.limits']), /defaultRequest\s+<map\[string\]/);
    assert.match(await cluster.kubectl(['explain', 'resourcequota.status']), /used\s+<map\[string\]/);
  });
});

describe('LimitRange', () => {
  it('fills the defaults into a pod and records them in the limit-ranger annotation', async () => {
    await cluster.kubectl(['create', 'namespace', 'limits']);
    await cluster.kubectl(['apply', '-f', '-'], {
      input: `apiVersion: v1
kind: LimitRange
metadata: {name: bounds, namespace: limits}
spec:
  limits:
  - type: Container
    default: {cpu: 300m, memory: 128Mi}
    defaultRequest: {cpu: 100m}
    max: {cpu: 500m}
`,
    });
    const stored = JSON.parse(await cluster.kubectl(['get', 'limitrange', 'bounds', '-n', 'limits', '-o', 'json']));
    assert.deepEqual(stored.spec.limits[0].defaultRequest, { cpu: '100m', memory: '128Mi' }, 'defaultRequest falls back to default');
    assert.match(await cluster.kubectl(['get', 'limits', '-n', 'limits']), /NAME\s+CREATED AT\nbounds\s+\d{4}-\d\d-\d\dT/);
    const described = await cluster.kubectl(['describe', 'limitrange', 'bounds', '-n', 'limits']);
    assert.match(described, /Container\s+cpu\s+-\s+500m\s+100m\s+300m\s+-/, described);

    await cluster.kubectl(['apply', '-f', '-'], { input: podYaml('web', 'limits') });
    const resources = await cluster.kubectl(['get', 'pod', 'web', '-n', 'limits', '-o', 'jsonpath={.spec.containers[0].resources}']);
    assert.deepEqual(JSON.parse(resources), { limits: { cpu: '300m', memory: '128Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
    const note = await cluster.kubectl(['get', 'pod', 'web', '-n', 'limits', '-o', 'jsonpath={.metadata.annotations.kubernetes\\.io/limit-ranger}']);
    assert.equal(note, 'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app');
  });

  it("refuses a pod over the max with Kubernetes' message", async () => {
    const result = await cluster.kubectlRaw(['apply', '-f', '-'], {
      input: podYaml('big', 'limits', '    resources: {limits: {cpu: "1"}}'),
    });
    assert.notEqual(result.code, 0);
    assert.ok(result.stderr.includes('pods "big" is forbidden: maximum cpu usage per Container is 500m, but limit is 1'), result.stderr);
  });
});

describe('ResourceQuota', () => {
  it("refuses the pod past pods=2 with Kubernetes' message, and frees the quota after a delete", async () => {
    await cluster.kubectl(['create', 'namespace', 'quota']);
    await cluster.kubectl(['create', 'quota', 'small', '-n', 'quota', '--hard=pods=2,requests.cpu=1']);
    const resources = '    resources: {requests: {cpu: 100m}}';
    await cluster.kubectl(['apply', '-f', '-'], { input: podYaml('one', 'quota', resources) });
    await cluster.kubectl(['apply', '-f', '-'], { input: podYaml('two', 'quota', resources) });
    const third = await cluster.kubectlRaw(['apply', '-f', '-'], { input: podYaml('three', 'quota', resources) });
    assert.notEqual(third.code, 0);
    assert.ok(third.stderr.includes('pods "three" is forbidden: exceeded quota: small, requested: pods=1, used: pods=2, limited: pods=2'), third.stderr);

    const missing = await cluster.kubectlRaw(['apply', '-f', '-'], { input: podYaml('bare', 'quota') });
    assert.ok(missing.stderr.includes('pods "bare" is forbidden: failed quota: small: must specify requests.cpu for: app'), missing.stderr);

    const table = await cluster.kubectl(['get', 'quota', '-n', 'quota']);
    assert.match(table, /NAME\s+AGE\s+REQUEST\s+LIMIT\nsmall\s+\S+\s+pods: 2\/2, requests.cpu: 200m\/1\s*\n/);
    const described = await cluster.kubectl(['describe', 'quota', 'small', '-n', 'quota']);
    assert.match(described, /Resource\s+Used\s+Hard\n\s*--------\s+----\s+----\npods\s+2\s+2\nrequests.cpu\s+200m\s+1\n/);

    await cluster.kubectl(['delete', 'pod', 'one', '-n', 'quota', '--wait=false']);
    await waitFor(
      'the quota freed',
      async () => {
        assert.equal(await cluster.kubectl(['get', 'quota', 'small', '-n', 'quota', '-o', 'jsonpath={.status.used.pods}']), '1');
        return true;
      },
      15_000,
    );
    await cluster.kubectl(['apply', '-f', '-'], { input: podYaml('three', 'quota', resources) });
  });

  it('counts Secrets again once one is deleted', async () => {
    await cluster.kubectl(['create', 'namespace', 'quota-secrets']);
    await cluster.kubectl(['create', 'quota', 'few', '-n', 'quota-secrets', '--hard=secrets=2']);
    await cluster.kubectl(['create', 'secret', 'generic', 'a', '-n', 'quota-secrets', '--from-literal=k=v']);
    await cluster.kubectl(['create', 'secret', 'generic', 'b', '-n', 'quota-secrets', '--from-literal=k=v']);
    const third = await cluster.kubectlRaw(['create', 'secret', 'generic', 'c', '-n', 'quota-secrets', '--from-literal=k=v']);
    assert.ok(third.stderr.includes('exceeded quota: few, requested: secrets=1, used: secrets=2, limited: secrets=2'), third.stderr);
    await cluster.kubectl(['delete', 'secret', 'a', '-n', 'quota-secrets']);
    await waitFor(
      'the quota recounted',
      async () => {
        assert.equal(await cluster.kubectl(['get', 'quota', 'few', '-n', 'quota-secrets', '-o', 'jsonpath={.status.used.secrets}']), '1');
        return true;
      },
      15_000,
    );
    await cluster.kubectl(['create', 'secret', 'generic', 'c', '-n', 'quota-secrets', '--from-literal=k=v']);
  });

  it('never lets concurrent creates overshoot', async () => {
    await cluster.kubectl(['create', 'namespace', 'burst']);
    await cluster.kubectl(['create', 'quota', 'three-pods', '-n', 'burst', '--hard=pods=3,count/configmaps=4']);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => cluster.api('POST', '/api/v1/namespaces/burst/pods', podJson(`p${i}`))));
    const codes = answers.map((answer) => answer.status).sort();
    assert.deepEqual(
      codes,
      [201, 201, 201, 403, 403, 403, 403, 403, 403, 403],
      JSON.stringify(answers.filter((a) => a.status !== 201 && a.status !== 403).map((a) => a.body)),
    );
    const pods = await cluster.api('GET', '/api/v1/namespaces/burst/pods');
    assert.equal(pods.body.items.length, 3);
    const configMaps = await Promise.all(
      Array.from({ length: 10 }, (_, i) => cluster.api('POST', '/api/v1/namespaces/burst/configmaps', { metadata: { name: `c${i}` } })),
    );
    // kube-root-ca.crt may or may not be there yet: what is stored never passes 4.
    const stored = await cluster.api('GET', '/api/v1/namespaces/burst/configmaps');
    assert.ok(stored.body.items.length <= 4, `${stored.body.items.length} configmaps`);
    assert.ok(configMaps.filter((answer) => answer.status === 201).length >= 3);
    const quota = await cluster.api('GET', '/api/v1/namespaces/burst/resourcequotas/three-pods');
    assert.equal(quota.body.status.used.pods, '3');
  });

  it('counts only the pods a scope selects', async () => {
    await cluster.kubectl(['create', 'namespace', 'scoped']);
    await cluster.kubectl(['create', 'quota', 'best-effort', '-n', 'scoped', '--hard=pods=1', '--scopes=BestEffort']);
    assert.equal((await cluster.api('POST', '/api/v1/namespaces/scoped/pods', podJson('free'))).status, 201);
    const second = await cluster.api('POST', '/api/v1/namespaces/scoped/pods', podJson('free-2'));
    assert.equal(second.status, 403);
    assert.equal(second.body.message, 'pods "free-2" is forbidden: exceeded quota: best-effort, requested: pods=1, used: pods=1, limited: pods=1');
    const burstable = await cluster.api('POST', '/api/v1/namespaces/scoped/pods', podJson('sized', { requests: { cpu: '10m' } }));
    assert.equal(burstable.status, 201, 'a pod with requests is not BestEffort');
  });
});
