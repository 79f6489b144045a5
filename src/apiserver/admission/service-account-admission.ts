// Kubernetes' ServiceAccount admission plugin, its token part: every pod whose account does not
// opt out (`automountServiceAccountToken: false` on the pod, else on its ServiceAccount) gets a
// projected volume `kube-api-access-<5 random>` with the account's token (refreshed by the agent),
// the cluster CA (the `kube-root-ca.crt` ConfigMap the server keeps in every namespace) and the
// namespace, mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount in each container
// that does not mount something there itself. Client libraries' in-cluster config reads exactly
// these three files.
//
// Unlike Kubernetes, a pod whose ServiceAccount does not exist (yet) is admitted, without a token:
// a namespace's `default` account is made by a controller a moment after the namespace, and a pod
// created in that moment is not refused.
import { randomInt } from 'node:crypto';
import { isObject, type KubeObject } from '../../api/meta.js';
import { whenReady, type MaybePromise } from '../../util/maybe-promise.js';
import type { AdmissionObjects } from './admission-objects.js';
import { isMirrorPod } from './mirror-pods.js';
import type { MutatingAdmission } from './mutating-admission.js';
import type { AdmissionRequest } from './validating-admission.js';

export const SERVICE_ACCOUNT_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
export const API_ACCESS_VOLUME_PREFIX = 'kube-api-access-';
/** What the kubelet-side admission asks for: Kubernetes' 1 h plus 7 s, the mark of a projected token. */
export const PROJECTED_TOKEN_SECONDS = 3607;
// Kubernetes' utilrand alphabet: no vowels (no words), no look-alike characters.
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

type Obj = Record<string, unknown>;

export class ServiceAccountAdmission implements MutatingAdmission {
  constructor(private readonly objects: AdmissionObjects) {}

  /** A pod's create, but a mirror pod's (an agent's static pod never gets a token). */
  mutates(request: AdmissionRequest): boolean {
    const { def } = request;
    return request.operation === 'create' && !request.subresource && def.group === '' && def.kind === 'Pod' && !isMirrorPod(request.object);
  }

  admit(request: AdmissionRequest): MaybePromise<void> {
    if (!this.mutates(request)) return;
    const { object } = request;
    const spec = object['spec'] as Obj;
    const accountName = typeof spec['serviceAccountName'] === 'string' && spec['serviceAccountName'] ? spec['serviceAccountName'] : 'default';
    return whenReady(this.objects.serviceAccount(object.metadata.namespace ?? '', accountName), (account) => {
      if (account && automounts(spec, account)) projectToken(spec);
    });
  }
}

function automounts(spec: Obj, account: KubeObject): boolean {
  if (typeof spec['automountServiceAccountToken'] === 'boolean') return spec['automountServiceAccountToken'];
  return account['automountServiceAccountToken'] !== false;
}

/** Adds the kube-api-access volume and its mounts (exported for the tests). */
export function projectToken(spec: Obj): void {
  const containers = [...list(spec['initContainers']), ...list(spec['containers'])];
  const needing = containers.filter((c) => !list(c['volumeMounts']).some((m) => m['mountPath'] === SERVICE_ACCOUNT_MOUNT_PATH));
  if (needing.length === 0) return;
  const volumes = list(spec['volumes']);
  let name: string;
  do name = `${API_ACCESS_VOLUME_PREFIX}${randomSuffix()}`;
  while (volumes.some((v) => v['name'] === name));
  spec['volumes'] = [...volumes, apiAccessVolume(name)];
  for (const container of needing) {
    container['volumeMounts'] = [...list(container['volumeMounts']), { name, readOnly: true, mountPath: SERVICE_ACCOUNT_MOUNT_PATH }];
  }
}

/** The volume as Kubernetes' admission writes it, defaults included (defaulting ran before admission). */
export function apiAccessVolume(name: string): Obj {
  return {
    name,
    projected: {
      defaultMode: 0o644,
      sources: [
        { serviceAccountToken: { expirationSeconds: PROJECTED_TOKEN_SECONDS, path: 'token' } },
        { configMap: { name: ROOT_CA_CONFIGMAP, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }] } },
      ],
    },
  };
}

function randomSuffix(): string {
  let out = '';
  for (let i = 0; i < 5; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

function list(value: unknown): Obj[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}
