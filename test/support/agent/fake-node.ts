// For the agent's unit tests of pod workers: a real in-process API server, and everything a pod
// worker uses (PodDeps) around a runtime held in memory (fake-runtime.ts). Each node made has
// its own back-offs and caches; pass a node name of its own for a node whose pods no other sees.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventRecorder, silentLogger } from '../../../src/client/index.js';
import { ServiceDirectory } from '../../../src/agent/network/service-directory.js';
import { ConfigSource } from '../../../src/agent/pods/config-source.js';
import { ImagePuller } from '../../../src/agent/pods/containers/image-puller.js';
import type { PodDeps } from '../../../src/agent/pods/deps.js';
import { DeviceAllocator } from '../../../src/agent/pods/devices.js';
import { PodEvents } from '../../../src/agent/pods/events.js';
import { InspectCache } from '../../../src/agent/pods/observe.js';
import { ProbeManager } from '../../../src/agent/pods/probes/manager.js';
import { SandboxReaper } from '../../../src/agent/pods/sandbox/reaper.js';
import { ServiceAccountTokenSource } from '../../../src/agent/pods/volumes/service-account-tokens.js';
import type { ContainerRuntime } from '../../../src/agent/runtime/runtime.js';
import { KeyedBackoff } from '../../../src/util/keyed-backoff.js';
import { startTestCluster, type TestCluster } from './agent-cluster.js';

export interface FakeNodeBed {
  cluster: TestCluster;
  /** A scratch directory of the bed's, removed on close. */
  dataDir: string;
  /** A node's PodDeps over `runtime` (the cluster's node name unless told another). */
  deps(runtime: ContainerRuntime, nodeName?: string): PodDeps;
  close(): Promise<void>;
}

export async function startFakeNodeBed(label: string): Promise<FakeNodeBed> {
  const cluster = await startTestCluster(label);
  const services = new ServiceDirectory(cluster.api, silentLogger);
  services.start();
  await services.waitForSync();
  const dataDir = await mkdtemp(join(tmpdir(), `drover-${label}-`));
  return {
    cluster,
    dataDir,
    deps(runtime, nodeName = cluster.nodeName) {
      const events = new PodEvents(new EventRecorder(cluster.api, 'kubelet', { host: nodeName, logger: silentLogger }));
      return {
        api: cluster.api,
        owner: { clusterId: label, nodeName },
        nodeAddress: '127.0.0.1',
        dataDir,
        localPathDir: join(dataDir, 'storage'),
        allocatable: { cpu: '2', memory: '4Gi', pods: '110' },
        runtimes: { primary: runtime, process: undefined, all: () => [runtime], forPod: () => runtime },
        sources: new ConfigSource(cluster.api),
        tokens: new ServiceAccountTokenSource(cluster.api),
        devices: new DeviceAllocator({}, join(dataDir, `devices-${Math.random()}.json`)),
        puller: new ImagePuller(events),
        events,
        probes: new ProbeManager(events, () => undefined),
        cache: new InspectCache(),
        crashBackoff: new KeyedBackoff(),
        reaper: new SandboxReaper(silentLogger),
        logger: silentLogger,
        nodePodCidr: () => undefined,
        dns: { clusterDns: [], clusterDomain: 'cluster.local', hostResolvConf: '' },
        services,
      };
    },
    async close() {
      await services.stop();
      await cluster.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
