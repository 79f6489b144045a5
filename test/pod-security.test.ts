// Pod Security admission end to end, through the real kubectl: namespace labels enforce, warn
// and audit the Pod Security Standards; workload templates are warned about, never refused;
// labelling a namespace warns about the pods already in it; `--pod-security` sets the level of
// namespaces without labels.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useCluster, type ClusterFixture } from './support/cluster-fixture.js';

const cluster = useCluster({ extraArgs: ['--no-control-plane'] });
const baselineByDefault = useCluster({ extraArgs: ['--no-control-plane', '--pod-security', 'baseline'] });

const P = 'pod-security.kubernetes.io';

async function namespace(on: ClusterFixture, name: string, labels: Record<string, string> = {}): Promise<void> {
  await on.kubectl(['create', 'namespace', name]);
  const pairs = Object.entries(labels).map(([key, value]) => `${P}/${key}=${value}`);
  if (pairs.length > 0) await on.kubectl(['label', 'namespace', name, ...pairs]);
}

/** A pod manifest; `spec` and `container` YAML are indented into place. */
function podYaml(name: string, namespaceName: string, options: { spec?: string; container?: string } = {}): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: ${namespaceName}
spec:
${options.spec ?? ''}
  containers:
  - name: app
    image: drover-test/busybox:1
    command: ["sleep", "3600"]
${options.container ?? ''}
`;
}

const PRIVILEGED = `    securityContext:
      privileged: true`;
const HOST_PATH = `  volumes:
  - name: host
    hostPath: {path: /tmp}`;
const RESTRICTED_POD = `  securityContext:
    runAsNonRoot: true
    runAsUser: 1000
    seccompProfile: {type: RuntimeDefault}`;
const RESTRICTED_CONTAINER = `    securityContext:
      allowPrivilegeEscalation: false
      capabilities: {drop: [ALL]}`;

const BASELINE_PRIVILEGED = 'violates PodSecurity "baseline:latest": privileged (container "app" must not set securityContext.privileged=true)';

describe('Pod Security enforce', () => {
  it("refuses a privileged pod in a baseline namespace with Kubernetes' message", async () => {
    await namespace(cluster, 'enforced', { enforce: 'baseline' });
    const result = await cluster.kubectlRaw(['apply', '-f', '-'], { input: podYaml('priv', 'enforced', { container: PRIVILEGED }) });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /Error from server \(Forbidden\)/);
    assert.ok(result.stderr.includes(`pods "priv" is forbidden: ${BASELINE_PRIVILEGED}`), result.stderr);
    assert.equal((await cluster.kubectlRaw(['get', 'pod', 'priv', '-n', 'enforced'])).code, 1, 'nothing was stored');
  });

  it('refuses a hostPath pod, through create, server-side dry run and server-side apply alike', async () => {
    const manifest = podYaml('host', 'enforced', { spec: HOST_PATH });
    for (const args of [
      ['create', '-f', '-'],
      ['create', '--dry-run=server', '-f', '-'],
      ['apply', '--server-side', '-f', '-'],
    ]) {
      const result = await cluster.kubectlRaw(args, { input: manifest });
      assert.notEqual(result.code, 0, `kubectl ${args.join(' ')}`);
      assert.ok(result.stderr.includes('pods "host" is forbidden: violates PodSecurity "baseline:latest": hostPath volumes (volume "host")'), result.stderr);
    }
  });

  it('allows the same pods in a privileged namespace', async () => {
    await namespace(cluster, 'open', { enforce: 'privileged' });
    const manifest = podYaml('priv', 'open', { spec: HOST_PATH, container: PRIVILEGED });
    const result = await cluster.kubectlRaw(['apply', '-f', '-'], { input: manifest });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /PodSecurity/);
  });

  it('accepts a pod that satisfies restricted, without warnings', async () => {
    await namespace(cluster, 'hardened', { enforce: 'restricted' });
    const result = await cluster.kubectlRaw(['apply', '-f', '-'], {
      input: podYaml('good', 'hardened', { spec: RESTRICTED_POD, container: RESTRICTED_CONTAINER }),
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
  });

  it('refuses a patch that changes a pod into one the namespace forbids', async () => {
    await namespace(cluster, 'tightened');
    await cluster.kubectl(['apply', '-f', '-'], { input: podYaml('old', 'tightened', { container: PRIVILEGED }) });
    await cluster.kubectl(['label', 'namespace', 'tightened', `${P}/enforce=baseline`]);
    const result = await cluster.kubectlRaw(['set', 'image', 'pod/old', 'app=drover-test/busybox:2', '-n', 'tightened']);
    assert.notEqual(result.code, 0);
    assert.ok(result.stderr.includes(`pods "old" is forbidden: ${BASELINE_PRIVILEGED}`), result.stderr);
    // Labels do not change what the checks read: the pod stays manageable.
    await cluster.kubectl(['label', 'pod', 'old', 'tier=web', '-n', 'tightened']);
  });
});

describe('Pod Security warn', () => {
  it('creates the pod and kubectl prints the warning', async () => {
    await namespace(cluster, 'warned', { warn: 'restricted' });
    const result = await cluster.kubectlRaw(['apply', '-f', '-'], { input: podYaml('loose', 'warned') });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /pod\/loose created/);
    assert.ok(
      result.stderr.includes(
        'Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), ' +
          'unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), ' +
          'runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), ' +
          'seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
      ),
      result.stderr,
    );
    assert.equal(await cluster.kubectl(['get', 'pod', 'loose', '-n', 'warned', '-o', 'jsonpath={.metadata.name}']), 'loose');
  });

  it('creates a Deployment with a violating template in an enforced namespace, with a warning', async () => {
    await namespace(cluster, 'workloads', { enforce: 'baseline' });
    const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: hostnet, namespace: workloads}
spec:
  selector: {matchLabels: {app: hostnet}}
  template:
    metadata: {labels: {app: hostnet}}
    spec:
      hostNetwork: true
      containers:
      - name: app
        image: drover-test/busybox:1
`;
    const result = await cluster.kubectlRaw(['apply', '-f', '-'], { input: deployment });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /deployment.apps\/hostnet created/);
    assert.ok(result.stderr.includes('Warning: would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true)'), result.stderr);
  });
});

describe('Pod Security namespace labels', () => {
  it('warns about existing pods when a namespace is labelled with a stricter enforce level', async () => {
    await namespace(cluster, 'existing');
    await cluster.kubectl(['apply', '-f', '-'], { input: podYaml('first', 'existing', { container: PRIVILEGED }) });
    await cluster.kubectl(['apply', '-f', '-'], { input: podYaml('second', 'existing', { container: PRIVILEGED }) });
    await cluster.kubectl(['apply', '-f', '-'], { input: podYaml('plain', 'existing') });
    const result = await cluster.kubectlRaw(['label', 'namespace', 'existing', `${P}/enforce=restricted`]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(
      result.stderr.includes('Warning: existing pods in namespace "existing" violate the new PodSecurity enforce level "restricted:latest"'),
      result.stderr,
    );
    assert.ok(
      result.stderr.includes(
        'Warning: first (and 1 other pod): privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
      ),
      result.stderr,
    );
    assert.ok(
      result.stderr.includes('Warning: plain: allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile'),
      result.stderr,
    );
    // The pods keep running: enforce applies to what is written from now on.
    assert.equal(await cluster.kubectl(['get', 'pods', '-n', 'existing', '-o', 'name']), 'pod/first\npod/plain\npod/second\n');
  });

  it('refuses a label value that is not a level or version, naming the label', async () => {
    await namespace(cluster, 'mislabelled');
    const level = await cluster.kubectlRaw(['label', 'namespace', 'mislabelled', `${P}/enforce=strict`]);
    assert.notEqual(level.code, 0);
    assert.ok(level.stderr.includes(`metadata.labels[${P}/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted`), level.stderr);
    const version = await cluster.kubectlRaw(['label', 'namespace', 'mislabelled', `${P}/warn-version=1.30`]);
    assert.ok(version.stderr.includes(`metadata.labels[${P}/warn-version]: Invalid value: "1.30": must be "latest" or "v1.x"`), version.stderr);
    await cluster.kubectl(['label', 'namespace', 'mislabelled', `${P}/warn-version=v1.30`]);
  });
});

describe('drover server --pod-security baseline', () => {
  it('enforces baseline in namespaces without labels', async () => {
    await namespace(baselineByDefault, 'unlabelled');
    const result = await baselineByDefault.kubectlRaw(['apply', '-f', '-'], { input: podYaml('priv', 'unlabelled', { container: PRIVILEGED }) });
    assert.notEqual(result.code, 0);
    assert.ok(result.stderr.includes(`pods "priv" is forbidden: ${BASELINE_PRIVILEGED}`), result.stderr);
    const plain = await baselineByDefault.kubectlRaw(['apply', '-f', '-'], { input: podYaml('plain', 'unlabelled') });
    assert.equal(plain.code, 0, plain.stderr);
  });

  it('leaves kube-system and namespaces labelled privileged alone', async () => {
    const system = await baselineByDefault.kubectlRaw(['apply', '-f', '-'], { input: podYaml('priv', 'kube-system', { container: PRIVILEGED }) });
    assert.equal(system.code, 0, system.stderr);
    await namespace(baselineByDefault, 'trusted', { enforce: 'privileged', warn: 'privileged', audit: 'privileged' });
    const trusted = await baselineByDefault.kubectlRaw(['apply', '-f', '-'], { input: podYaml('priv', 'trusted', { container: PRIVILEGED }) });
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.equal(trusted.stderr, '');
  });
});
