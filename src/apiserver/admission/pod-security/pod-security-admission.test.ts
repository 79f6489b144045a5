// The admission step: which mode applies to which write, what it answers, what it records.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta.js';
import { findResource } from '../../../api/registry.js';
import { ApiError } from '../../errors.js';
import type { AdmissionRequest } from '../validating-admission.js';
import { AUDIT_VIOLATIONS_ANNOTATION, ENFORCE_POLICY_ANNOTATION, PodSecurityAdmission } from './pod-security-admission.js';
import type { PodSecurityLevel } from './policy.js';

const P = 'pod-security.kubernetes.io/';
const pods = findResource('', 'v1', 'pods')!;
const namespaces = findResource('', 'v1', 'namespaces')!;
const deployments = findResource('apps', 'v1', 'deployments')!;

function admission(labels: Record<string, Record<string, string>>, existing: KubeObject[] = [], defaultLevel?: PodSecurityLevel): PodSecurityAdmission {
  return new PodSecurityAdmission({
    namespaceLabels: async (name) => labels[name],
    listPods: async (namespace) => existing.filter((pod) => pod.metadata.namespace === namespace),
    ...(defaultLevel ? { defaultLevel } : {}),
  });
}

function pod(name: string, namespace: string, privileged = true, extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, ...extra },
    spec: { containers: [{ name: 'c', image: 'i', securityContext: { privileged } }] },
  };
}

function request(def: AdmissionRequest['def'], object: KubeObject, old?: KubeObject): AdmissionRequest {
  return { operation: old ? 'update' : 'create', def, object, auditAnnotations: {}, ...(old ? { old } : {}) };
}

/** The error `validate` refuses with, whether it throws at once or rejects. */
async function refusal(validate: () => unknown): Promise<ApiError> {
  const error = await Promise.resolve()
    .then(validate)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  assert.ok(error instanceof ApiError, 'the write is refused');
  return error;
}

describe('Pod Security admission', () => {
  it('refuses a pod that breaks the enforced level with 403 and records the policy', async () => {
    const create = request(pods, pod('x', 'team'));
    const error = await refusal(() => admission({ team: { [`${P}enforce`]: 'baseline' } }).validate(create));
    assert.equal(error.code, 403);
    assert.equal(
      error.message,
      'pods "x" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)',
    );
    assert.equal(create.auditAnnotations[ENFORCE_POLICY_ANNOTATION], 'baseline:latest');
  });

  it('warns and audits without refusing', async () => {
    const create = request(pods, pod('x', 'team'));
    const labels = { team: { [`${P}warn`]: 'baseline', [`${P}audit`]: 'baseline', [`${P}audit-version`]: 'v1.30' } };
    assert.deepEqual(await admission(labels).validate(create), [
      'would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)',
    ]);
    assert.equal(
      create.auditAnnotations[AUDIT_VIOLATIONS_ANNOTATION],
      'would violate PodSecurity "baseline:v1.30": privileged (container "c" must not set securityContext.privileged=true)',
    );
  });

  it('only warns about workload templates, even where the level is enforced', async () => {
    const deployment: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'team' },
      spec: { template: { spec: { hostPID: true, containers: [{ name: 'c', image: 'i' }] } } },
    };
    assert.deepEqual(await admission({ team: { [`${P}enforce`]: 'baseline' } }).validate(request(deployments, deployment)), [
      'would violate PodSecurity "baseline:latest": host namespaces (hostPID=true)',
    ]);
  });

  it('warns once about replicas of a training job that break the level alike, and audits them', async () => {
    const template = { spec: { hostIPC: true, containers: [{ name: 'pytorch', image: 'i' }] } };
    const job: KubeObject = {
      apiVersion: 'kubeflow.org/v1',
      kind: 'PyTorchJob',
      metadata: { name: 'j', namespace: 'team' },
      spec: { pytorchReplicaSpecs: { Master: { template }, Worker: { replicas: 4, template } } },
    };
    const create = request(findResource('kubeflow.org', 'v1', 'pytorchjobs')!, job);
    const labels = { team: { [`${P}enforce`]: 'baseline', [`${P}audit`]: 'baseline' } };
    const expected = 'would violate PodSecurity "baseline:latest": host namespaces (hostIPC=true)';
    assert.deepEqual(await admission(labels).validate(create), [expected]);
    assert.equal(create.auditAnnotations[AUDIT_VIOLATIONS_ANNOTATION], expected);
  });

  it('applies the server default to unlabelled namespaces, but not to kube-system', async () => {
    const strict = admission({ team: {}, 'kube-system': {}, open: { [`${P}enforce`]: 'privileged', [`${P}warn`]: 'privileged' } }, [], 'baseline');
    assert.equal((await refusal(() => strict.validate(request(pods, pod('x', 'team'))))).code, 403);
    assert.deepEqual(await strict.validate(request(pods, pod('x', 'kube-system'))), []);
    assert.deepEqual(await strict.validate(request(pods, pod('x', 'open'))), [], 'labels override the default');
  });

  it('re-checks a pod update only when it changes what the checks read', async () => {
    const enforced = admission({ team: { [`${P}enforce`]: 'baseline' } });
    const old = pod('x', 'team');
    const relabelled = pod('x', 'team', true, { labels: { tier: 'web' } });
    assert.deepEqual(await enforced.validate(request(pods, relabelled, old)), []);
    const newImage = structuredClone(old);
    (newImage['spec'] as any).containers[0].image = 'j';
    assert.equal((await refusal(() => enforced.validate(request(pods, newImage, old)))).code, 403);
    assert.deepEqual(await enforced.validate({ ...request(pods, newImage, old), subresource: 'status' }), []);
  });

  it('refuses bad labels on a namespace with 422 naming the label', async () => {
    const namespace: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team', labels: { [`${P}enforce`]: 'strict' } } };
    const error = await refusal(() => admission({}).validate(request(namespaces, namespace)));
    assert.equal(error.code, 422);
    assert.match(error.message, /metadata\.labels\[pod-security\.kubernetes\.io\/enforce\]: Invalid value: "strict"/);
  });

  it('warns about existing pods when a namespace is labelled stricter', async () => {
    const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true };
    const existing = [
      pod('web-1', 'team', true, { ownerReferences: [owner] }),
      pod('web-2', 'team', true, { ownerReferences: [owner] }),
      pod('lonely', 'team', false),
      pod('elsewhere', 'other'),
    ];
    const before: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } };
    const after: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team', labels: { [`${P}enforce`]: 'baseline' } } };
    assert.deepEqual(await admission({}, existing).validate(request(namespaces, after, before)), [
      'existing pods in namespace "team" violate the new PodSecurity enforce level "baseline:latest"',
      'web-1 (and 1 other pod): privileged',
    ]);
    // Relaxing the level or keeping it warns about nothing.
    assert.deepEqual(await admission({}, existing).validate(request(namespaces, before, after)), []);
    assert.deepEqual(await admission({}, existing).validate(request(namespaces, after, after)), []);
  });
});
