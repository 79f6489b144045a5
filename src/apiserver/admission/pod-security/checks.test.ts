// The Pod Security Standards' checks on pod specs, with Kubernetes' own wording.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkPod, describeViolations, violationReasons } from './evaluate.js';
import type { PodView } from './pod-view.js';
import type { PodSecurityLevel } from './policy.js';

/** A pod that passes restricted: every check below breaks one thing of it. */
function restrictedPod(): PodView {
  return {
    annotations: {},
    spec: {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [
        {
          name: 'app',
          image: 'drover-test/busybox:1',
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } },
        },
      ],
      volumes: [
        { name: 'config', configMap: { name: 'c' } },
        { name: 'scratch', emptyDir: {} },
      ],
    },
  };
}

function container(pod: PodView, index = 0): Record<string, any> {
  return (pod.spec['containers'] as Record<string, any>[])[index]!;
}

const message = (level: PodSecurityLevel, pod: PodView) => describeViolations(checkPod(level, pod));

describe('Pod Security checks', () => {
  it('allows everything at privileged, and the restricted pod at every level', () => {
    const pod = restrictedPod();
    container(pod).securityContext.privileged = true;
    assert.deepEqual(checkPod('privileged', pod), []);
    assert.deepEqual(checkPod('restricted', restrictedPod()), []);
    assert.deepEqual(checkPod('baseline', restrictedPod()), []);
  });

  it('allows a minimal pod at baseline but not at restricted', () => {
    const minimal: PodView = { annotations: {}, spec: { containers: [{ name: 'c', image: 'i' }] } };
    assert.deepEqual(checkPod('baseline', minimal), []);
    assert.equal(
      violationReasons(checkPod('restricted', minimal)),
      'allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    );
  });

  it('names privileged containers and hostPath volumes in Kubernetes order', () => {
    const pod = restrictedPod();
    container(pod).securityContext.privileged = true;
    pod.spec['volumes'] = [{ name: 'v', hostPath: { path: '/' } }];
    assert.equal(message('baseline', pod), 'hostPath volumes (volume "v"), privileged (container "app" must not set securityContext.privileged=true)');
    // restricted says it once, as a volume type, instead of as a hostPath volume
    assert.equal(
      message('restricted', pod),
      'privileged (container "app" must not set securityContext.privileged=true), restricted volume types (volume "v" uses restricted volume type "hostPath")',
    );
  });

  it('checks init and ephemeral containers too, and pluralizes', () => {
    const pod = restrictedPod();
    pod.spec['initContainers'] = [{ name: 'init', image: 'i', securityContext: { privileged: true } }];
    pod.spec['ephemeralContainers'] = [{ name: 'debug', image: 'i', securityContext: { privileged: true } }];
    assert.equal(message('baseline', pod), 'privileged (containers "init", "debug" must not set securityContext.privileged=true)');
  });

  it('reports host namespaces, host ports and hostProcess', () => {
    const pod = restrictedPod();
    Object.assign(pod.spec, { hostNetwork: true, hostIPC: true });
    container(pod).ports = [
      { containerPort: 80, hostPort: 8080 },
      { containerPort: 81, hostPort: 0 },
    ];
    container(pod).securityContext.windowsOptions = { hostProcess: true };
    assert.equal(
      message('baseline', pod),
      'host namespaces (hostNetwork=true, hostIPC=true), hostPort (container "app" uses hostPort 8080), ' +
        'hostProcess (container "app" must not set securityContext.windowsOptions.hostProcess=true)',
    );
  });

  it('allows the default capabilities at baseline; restricted allows only NET_BIND_SERVICE', () => {
    const pod = restrictedPod();
    container(pod).securityContext.capabilities.add = ['CHOWN', 'SYS_ADMIN', 'NET_ADMIN'];
    assert.equal(
      message('baseline', pod),
      'non-default capabilities (container "app" must not include "NET_ADMIN", "SYS_ADMIN" in securityContext.capabilities.add)',
    );
    assert.equal(
      message('restricted', pod),
      'unrestricted capabilities (container "app" must not include "CHOWN", "NET_ADMIN", "SYS_ADMIN" in securityContext.capabilities.add)',
    );
    delete container(pod).securityContext.capabilities.drop;
    container(pod).securityContext.capabilities.add = [];
    assert.equal(message('restricted', pod), 'unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"])');
  });

  it('forbids unconfined seccomp and AppArmor profiles, fields and annotations', () => {
    const pod = restrictedPod();
    pod.spec['securityContext'] = { runAsNonRoot: true, seccompProfile: { type: 'Unconfined' }, appArmorProfile: { type: 'Unconfined' } };
    pod.annotations = {
      'container.apparmor.security.beta.kubernetes.io/app': 'unconfined',
      'container.apparmor.security.beta.kubernetes.io/b': 'localhost/mine',
    };
    assert.equal(
      message('baseline', pod),
      'forbidden AppArmor profiles (pod and annotation must not set AppArmor profile type to "Unconfined", "container.apparmor.security.beta.kubernetes.io/app=\\"unconfined\\""), ' +
        'seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")',
    );
  });

  it('forbids custom SELinux options, Unmasked /proc and unsafe sysctls', () => {
    const pod = restrictedPod();
    pod.spec['securityContext'] = {
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
      seLinuxOptions: { type: 'spc_t', user: 'root' },
      sysctls: [
        { name: 'net.ipv4.tcp_syncookies', value: '1' },
        { name: 'kernel.msgmax', value: '1' },
      ],
    };
    container(pod).securityContext.procMount = 'Unmasked';
    container(pod).securityContext.seLinuxOptions = { type: 'container_t' };
    assert.equal(
      message('baseline', pod),
      'procMount (container "app" must not set securityContext.procMount to "Unmasked"), ' +
        'seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set), ' +
        'forbidden sysctls (kernel.msgmax)',
    );
  });

  it('requires runAsNonRoot and a confining seccomp profile from the pod or every container', () => {
    const pod = restrictedPod();
    pod.spec['securityContext'] = {};
    pod.spec['containers'] = [
      {
        ...container(pod),
        name: 'a',
        securityContext: { ...container(pod).securityContext, runAsNonRoot: true, seccompProfile: { type: 'Localhost', localhostProfile: 'p.json' } },
      },
      { ...container(pod), name: 'b' },
    ];
    assert.equal(
      message('restricted', pod),
      'runAsNonRoot != true (pod or container "b" must set securityContext.runAsNonRoot=true), ' +
        'seccompProfile (pod or container "b" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
  });

  it('forbids runAsUser 0 and an explicit runAsNonRoot false', () => {
    const pod = restrictedPod();
    Object.assign(pod.spec['securityContext'] as object, { runAsUser: 0 });
    container(pod).securityContext.runAsNonRoot = false;
    assert.equal(
      message('restricted', pod),
      'runAsNonRoot != true (container "app" must not set securityContext.runAsNonRoot=false), runAsUser=0 (pod must not set runAsUser=0)',
    );
  });

  it('exempts Windows pods from the Linux-only restricted checks', () => {
    const windows: PodView = {
      annotations: {},
      spec: { os: { name: 'windows' }, securityContext: { runAsNonRoot: true }, containers: [{ name: 'c', image: 'i' }] },
    };
    assert.deepEqual(checkPod('restricted', windows), []);
  });
});
