import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Docker from 'dockerode';
import { createContext } from './client.js';
import { containerCreateOptions, resourceFields, sandboxCreateOptions } from './container-config.js';
import type { ContainerSpec } from '../runtime.js';

// A client that is never called: these are pure translations.
const ctx = createContext({ docker: new Docker({ socketPath: '/nonexistent' }) });
const pod = { uid: 'u-1', name: 'web', namespace: 'prod' };

describe('resourceFields', () => {
  it('turns limits.cpu into a CFS quota per 100 ms and requests.cpu into shares', () => {
    assert.deepEqual(resourceFields({ cpuLimitMillis: 250, cpuRequestMillis: 100 }), { CpuPeriod: 100_000, CpuQuota: 25_000, CpuShares: 102 });
  });
  it("respects Docker's and the kernel's minimums", () => {
    assert.deepEqual(resourceFields({ cpuLimitMillis: 1, cpuRequestMillis: 1 }), { CpuPeriod: 100_000, CpuQuota: 1000, CpuShares: 2 });
  });
  it('disables swap beyond the memory limit', () => {
    assert.deepEqual(resourceFields({ memoryLimitBytes: 64 << 20, pidsLimit: 100 }), { Memory: 64 << 20, MemorySwap: 64 << 20, PidsLimit: 100 });
  });
  it('leaves unset limits unset', () => {
    assert.deepEqual(resourceFields({}), {});
    assert.deepEqual(resourceFields(undefined), {});
  });
});

describe('containerCreateOptions', () => {
  const base: ContainerSpec = { pod, sandboxId: 'sb1', name: 'app', attempt: 2, image: 'img:1' };

  it("joins the sandbox's network and IPC namespaces and labels the identity", () => {
    const opts = containerCreateOptions(ctx, { ...base, labels: { 'drover.dev/pod-uid': 'forged', team: 'a' } });
    assert.equal(opts.name, 'drover_app_web_prod_u-1_2');
    assert.equal(opts.HostConfig?.NetworkMode, 'container:sb1');
    assert.equal(opts.HostConfig?.IpcMode, 'container:sb1');
    assert.equal(opts.Labels?.['drover.dev/pod-uid'], 'u-1', 'spec labels cannot forge the identity');
    assert.equal(opts.Labels?.team, 'a');
    assert.equal(opts.Labels?.['drover.dev/sandbox-id'], 'sb1');
    assert.equal(opts.Labels?.['drover.dev/attempt'], '2');
  });

  it("asks the nvidia driver for the container's GPUs by UUID, and for nothing without GPUs", () => {
    const opts = containerCreateOptions(ctx, { ...base, gpus: ['GPU-a', 'GPU-b'] });
    assert.deepEqual(opts.HostConfig?.DeviceRequests, [{ Driver: 'nvidia', DeviceIDs: ['GPU-a', 'GPU-b'], Capabilities: [['gpu']] }]);
    assert.equal(containerCreateOptions(ctx, base).HostConfig?.DeviceRequests, undefined);
  });

  it('maps command to ENTRYPOINT and args to CMD, as Kubernetes does', () => {
    assert.deepEqual(pick(containerCreateOptions(ctx, { ...base, command: ['sh'], args: ['-c', 'x'] })), { Entrypoint: ['sh'], Cmd: ['-c', 'x'] });
    assert.deepEqual(pick(containerCreateOptions(ctx, { ...base, args: ['x'] })), { Entrypoint: undefined, Cmd: ['x'] });
    assert.deepEqual(pick(containerCreateOptions(ctx, base)), { Entrypoint: undefined, Cmd: undefined });
  });

  it('passes env, mounts and the security context through', () => {
    const opts = containerCreateOptions(ctx, {
      ...base,
      env: { A: '1', B: 'x=y' },
      mounts: [
        { type: 'bind', source: '/data/v', target: '/v', readOnly: true },
        { type: 'tmpfs', target: '/scratch', sizeBytes: 1024 },
      ],
      securityContext: { user: '1000:1000', privileged: true, readOnlyRootFilesystem: true, capDrop: ['ALL'] },
      tty: true,
      stdin: true,
    });
    assert.deepEqual(opts.Env, ['A=1', 'B=x=y']);
    assert.equal(opts.User, '1000:1000');
    assert.equal(opts.Tty, true);
    assert.equal(opts.OpenStdin, true);
    assert.equal(opts.HostConfig?.Privileged, true);
    assert.equal(opts.HostConfig?.ReadonlyRootfs, true);
    assert.deepEqual(opts.HostConfig?.CapDrop, ['ALL']);
    assert.deepEqual(
      opts.HostConfig?.Mounts?.map((m) => [m.Type, m.Target, m.ReadOnly]),
      [
        ['bind', '/v', true],
        ['tmpfs', '/scratch', false],
      ],
    );
  });
});

describe('sandboxCreateOptions', () => {
  it('publishes hostPorts on 127.0.0.1 unless a port names its address', () => {
    const opts = sandboxCreateOptions(ctx, {
      pod,
      attempt: 0,
      ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 53, hostPort: 5353, protocol: 'UDP', hostIP: '127.0.0.2' }, { containerPort: 9000 }],
    });
    assert.equal(opts.name, 'drover_POD_web_prod_u-1_0');
    assert.equal(opts.Image, 'drover/pause:1');
    assert.equal(opts.Hostname, 'web');
    assert.deepEqual(opts.HostConfig?.PortBindings, {
      '80/tcp': [{ HostIp: '127.0.0.1', HostPort: '8080' }],
      '53/udp': [{ HostIp: '127.0.0.2', HostPort: '5353' }],
    });
    assert.deepEqual(Object.keys(opts.ExposedPorts ?? {}), ['80/tcp', '53/udp', '9000/tcp']);
    assert.equal(opts.Labels?.['drover.dev/kind'], 'sandbox');
  });

  it('uses the host network without publishing anything', () => {
    const opts = sandboxCreateOptions(ctx, { pod, attempt: 1, hostNetwork: true, ports: [{ containerPort: 80, hostPort: 80 }] });
    assert.equal(opts.HostConfig?.NetworkMode, 'host');
    assert.deepEqual(opts.HostConfig?.PortBindings, {});
    assert.equal(opts.Hostname, undefined);
  });
});

function pick(o: Docker.ContainerCreateOptions): { Entrypoint: unknown; Cmd: unknown } {
  return { Entrypoint: o.Entrypoint, Cmd: o.Cmd };
}
