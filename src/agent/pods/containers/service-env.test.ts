import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Service, ServicePort } from '../../../api/services.js';
import { ServicesNotSyncedError } from '../../network/service-directory.js';
import type { ContainerRuntime } from '../../runtime/runtime.js';
import type { ConfigSource } from '../config-source.js';
import { buildContainerSpec } from './spec.js';
import { podServiceEnv, serviceEnvVars, type ServiceLookup } from './service-env.js';
import type { Container, Pod } from '../../../api/core/index.js';

function service(namespace: string, name: string, clusterIP: string, ports: ServicePort[], type?: string): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { namespace, name }, spec: { clusterIP, ports, ...(type ? { type } : {}) } };
}

function lookup(services: Service[]): ServiceLookup {
  return { inNamespace: (ns: string) => services.filter((s) => s.metadata.namespace === ns) };
}

const notSynced: ServiceLookup = {
  inNamespace: () => {
    throw new ServicesNotSyncedError();
  },
};

function pod(namespace: string, spec: Record<string, unknown> = {}, containers: Container[] = []): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { namespace, name: 'p', uid: 'uid-1' }, spec: { containers, ...spec } };
}

const kubernetes = service('default', 'kubernetes', '10.43.0.1', [{ name: 'https', port: 443, protocol: 'TCP' }]);

describe('service environment variables', () => {
  it("gives a Service with dashes and one unnamed port the kubelet's variables, in its order", () => {
    const env = serviceEnvVars([service('dev', 'my-svc', '10.43.0.20', [{ port: 80 }])]);
    assert.deepEqual(Object.entries(env), [
      ['MY_SVC_SERVICE_HOST', '10.43.0.20'],
      ['MY_SVC_SERVICE_PORT', '80'],
      ['MY_SVC_PORT', 'tcp://10.43.0.20:80'],
      ['MY_SVC_PORT_80_TCP', 'tcp://10.43.0.20:80'],
      ['MY_SVC_PORT_80_TCP_PROTO', 'tcp'],
      ['MY_SVC_PORT_80_TCP_PORT', '80'],
      ['MY_SVC_PORT_80_TCP_ADDR', '10.43.0.20'],
    ]);
  });

  it('names every named port, the first port being the backwards-compatible one, UDP in lower and upper case where Docker has it', () => {
    const env = serviceEnvVars([
      service('dev', 'dns', '10.43.0.10', [
        { name: 'dns-udp', port: 53, protocol: 'UDP' },
        { name: 'dns-tcp', port: 53, protocol: 'TCP' },
        { name: 'metrics', port: 9153 },
      ]),
    ]);
    assert.equal(env['DNS_SERVICE_PORT'], '53');
    assert.equal(env['DNS_SERVICE_PORT_DNS_UDP'], '53');
    assert.equal(env['DNS_SERVICE_PORT_DNS_TCP'], '53');
    assert.equal(env['DNS_SERVICE_PORT_METRICS'], '9153');
    assert.equal(env['DNS_PORT'], 'udp://10.43.0.10:53');
    assert.equal(env['DNS_PORT_53_UDP'], 'udp://10.43.0.10:53');
    assert.equal(env['DNS_PORT_53_UDP_PROTO'], 'udp');
    assert.equal(env['DNS_PORT_53_TCP'], 'tcp://10.43.0.10:53');
    assert.equal(env['DNS_PORT_9153_TCP_ADDR'], '10.43.0.10');
    assert.equal(Object.keys(env).length, 2 + 3 + 1 + 3 * 4);
  });

  it('brackets an IPv6 cluster IP in the URLs only', () => {
    const env = serviceEnvVars([service('dev', 'v6', 'fd00::10', [{ port: 80 }])]);
    assert.equal(env['V6_SERVICE_HOST'], 'fd00::10');
    assert.equal(env['V6_PORT'], 'tcp://[fd00::10]:80');
    assert.equal(env['V6_PORT_80_TCP_ADDR'], 'fd00::10');
  });

  it('skips headless, ExternalName and address-less Services', () => {
    const env = serviceEnvVars([
      service('dev', 'headless', 'None', [{ port: 80 }]),
      service('dev', 'pending', '', [{ port: 80 }]),
      { apiVersion: 'v1', kind: 'Service', metadata: { namespace: 'dev', name: 'ext' }, spec: { type: 'ExternalName', externalName: 'example.com' } },
    ]);
    assert.deepEqual(env, {});
  });

  it("gives a pod its namespace's Services and the kubernetes Service, nothing of other namespaces", () => {
    const services = lookup([kubernetes, service('default', 'other', '10.43.0.30', [{ port: 1 }]), service('dev', 'web', '10.43.0.40', [{ port: 8080 }])]);
    const env = podServiceEnv(pod('dev'), services);
    assert.equal(env['KUBERNETES_SERVICE_HOST'], '10.43.0.1');
    assert.equal(env['KUBERNETES_SERVICE_PORT'], '443');
    assert.equal(env['KUBERNETES_SERVICE_PORT_HTTPS'], '443');
    assert.equal(env['KUBERNETES_PORT_443_TCP'], 'tcp://10.43.0.1:443');
    assert.equal(env['WEB_SERVICE_HOST'], '10.43.0.40');
    assert.equal(env['OTHER_SERVICE_HOST'], undefined);
  });

  it('with enableServiceLinks: false keeps only the kubernetes Service', () => {
    const services = lookup([kubernetes, service('dev', 'web', '10.43.0.40', [{ port: 8080 }])]);
    const env = podServiceEnv(pod('dev', { enableServiceLinks: false }), services);
    assert.equal(env['KUBERNETES_SERVICE_HOST'], '10.43.0.1');
    assert.equal(env['WEB_SERVICE_HOST'], undefined);
  });

  it("lets a Service of the pod's namespace named kubernetes win over the master one (unless links are off or it has no address)", () => {
    const own = service('dev', 'kubernetes', '10.43.0.99', [{ port: 8443 }]);
    assert.equal(podServiceEnv(pod('dev'), lookup([kubernetes, own]))['KUBERNETES_SERVICE_HOST'], '10.43.0.99');
    assert.equal(podServiceEnv(pod('dev', { enableServiceLinks: false }), lookup([kubernetes, own]))['KUBERNETES_SERVICE_HOST'], '10.43.0.1');
    const headless = service('dev', 'kubernetes', 'None', [{ port: 8443 }]);
    assert.equal(podServiceEnv(pod('dev'), lookup([kubernetes, headless]))['KUBERNETES_SERVICE_HOST'], '10.43.0.1');
  });

  it('refuses before the Services were listed, even with links off', () => {
    assert.throws(() => podServiceEnv(pod('dev'), notSynced), ServicesNotSyncedError);
    assert.throws(() => podServiceEnv(pod('dev', { enableServiceLinks: false }), notSynced), ServicesNotSyncedError);
  });
});

describe('service variables in the container spec', () => {
  const sources = { configMap: async () => ({ data: { WEB_SERVICE_PORT: 'from-configmap' } }), secret: async () => undefined } as unknown as ConfigSource;

  async function spec(p: Pod, services: ServiceLookup, runtimeName = 'docker'): Promise<{ env: Record<string, string>; command?: string[]; args?: string[] }> {
    const dataDir = await mkdtemp(join(tmpdir(), 'drover-service-env-'));
    try {
      const built = await buildContainerSpec({
        pod: p,
        container: p.spec.containers[0]!,
        isInit: false,
        attempt: 0,
        restartCount: 0,
        sandboxId: 'sb',
        podIP: '10.42.0.5',
        runtime: { name: runtimeName } as ContainerRuntime,
        volumes: new Map(),
        devices: {},
        owner: { clusterId: 'c', nodeName: 'n' },
        nodeAddress: '192.168.1.2',
        dataDir,
        allocatable: {},
        sources,
        services,
        apiServer: { host: '192.168.1.1', port: '6443' },
        dns: { clusterDns: ['10.43.0.10'], clusterDomain: 'cluster.local', hostResolvConf: '' },
      });
      return { ...built, env: built.env ?? {} };
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }

  const services = lookup([kubernetes, service('dev', 'web', '10.43.0.40', [{ port: 8080 }])]);

  it("lets the container's env and envFrom override service variables, and expands $(VAR) in env, command and args with them", async () => {
    const container: Container = {
      name: 'c',
      image: 'busybox',
      envFrom: [{ configMapRef: { name: 'cm' } }],
      env: [
        { name: 'WEB_SERVICE_HOST', value: 'overridden' },
        { name: 'URL', value: 'http://$(WEB_PORT_8080_TCP_ADDR):$(WEB_SERVICE_PORT)' },
      ],
      command: ['sh', '-c', 'curl $(URL) $(KUBERNETES_SERVICE_HOST)'],
      args: ['$(WEB_PORT)'],
    };
    const built = await spec(pod('dev', {}, [container]), services);
    assert.equal(built.env['WEB_SERVICE_HOST'], 'overridden');
    assert.equal(built.env['WEB_SERVICE_PORT'], 'from-configmap', 'envFrom wins over the Service');
    assert.equal(built.env['URL'], 'http://10.43.0.40:from-configmap', "expansion sees the container's own variables first");
    assert.equal(built.env['WEB_PORT'], 'tcp://10.43.0.40:8080');
    assert.deepEqual(built.command, ['sh', '-c', 'curl http://10.43.0.40:from-configmap 10.43.0.1']);
    assert.deepEqual(built.args, ['tcp://10.43.0.40:8080']);
  });

  it("gives host-network and process pods the API server's own address in KUBERNETES_SERVICE_HOST/PORT, the rest as for any pod", async () => {
    const container: Container = { name: 'c', image: 'busybox', command: ['$(KUBERNETES_SERVICE_HOST):$(KUBERNETES_SERVICE_PORT)'] };
    for (const [p, runtime] of [
      [pod('dev', { hostNetwork: true }, [container]), 'docker'],
      [pod('dev', { runtimeClassName: 'process' }, [container]), 'process'],
    ] as const) {
      const built = await spec(p, services, runtime);
      assert.equal(built.env['KUBERNETES_SERVICE_HOST'], '192.168.1.1');
      assert.equal(built.env['KUBERNETES_SERVICE_PORT'], '6443');
      assert.deepEqual(built.command, ['192.168.1.1:6443']);
      assert.equal(built.env['KUBERNETES_PORT_443_TCP_ADDR'], '10.43.0.1');
      assert.equal(built.env['WEB_SERVICE_HOST'], '10.43.0.40');
    }
    const onPodNetwork = await spec(pod('dev', {}, [container]), services);
    assert.equal(onPodNetwork.env['KUBERNETES_SERVICE_HOST'], '10.43.0.1');
  });

  it('does not build a spec before the Services were listed', async () => {
    await assert.rejects(spec(pod('dev', {}, [{ name: 'c', image: 'busybox' }]), notSynced), ServicesNotSyncedError);
  });
});
