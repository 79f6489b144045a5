// startAgent: the node agent. It registers the Node and keeps its status and Lease fresh
// (node/), runs the pods bound to it on Docker or as host processes (pods/), and hands the
// streaming server a resolver from (namespace, pod, container) to runtime and container id.
import { join, resolve } from 'node:path';
import { clusterNetwork, type ClusterNetwork } from '../api/cluster-network.js';
import { ANN_NODE_LOCAL_PATH_DIR } from '../api/volumes/names.js';
import { LocalPathCleaner } from './storage/local-path-cleaner.js';
import { ApiClient, EventRecorder, consoleLogger, type Logger } from '../client/index.js';
import type { Owner } from './agent-labels.js';
import { readClusterId } from './cluster-id.js';
import { createResolver } from './container-resolver.js';
import type { PodInventory } from './streaming/pod-inventory.js';
import type { ContainerResolver } from './streaming/resolver.js';
import type { Registry } from 'prom-client';
import { agentRegistry, findNodeGpus, gpuHolders, nodeDevices, startGpuMonitor } from './gpu/node-gpus.js';
import { hostFacts } from './node/host-info.js';
import { KernelLog } from './node/kernel-log.js';
import { capacityOf } from './node/node-object.js';
import { NodeManager } from './node/node-manager.js';
import { ServiceRangeInUseError } from './network/host-rules.js';
import { startNodeNetwork, type NodeNetwork } from './network/node-network.js';
import { ServiceDirectory } from './network/service-directory.js';
import { readHostResolvConf } from './pods/dns/host-resolv-conf.js';
import { ServiceAccountTokenSource } from './pods/volumes/service-account-tokens.js';
import { ConfigSource } from './pods/config-source.js';
import { DeviceAllocator } from './pods/devices.js';
import { ImagePuller } from './pods/containers/image-puller.js';
import { InspectCache } from './pods/observe.js';
import type { PodDeps, RuntimeSet } from './pods/deps.js';
import { PodEvents } from './pods/events.js';
import { PodManager } from './pods/manager.js';
import { ProbeManager } from './pods/probes/manager.js';
import { SandboxReaper } from './pods/sandbox/reaper.js';
import { DEFAULT_POOL, startSandboxPool, type SandboxPoolSettings } from './pods/sandbox/pool.js';
import type { PodNetworkAttach } from './runtime/docker/direct-attach.js';
import { registerContainerMetrics } from './stats/cadvisor-metrics.js';
import { runtimeTargets } from './stats/container-targets.js';
import { ResourceSampler } from './stats/resource-sampler.js';
import { DockerRuntime } from './runtime/docker/index.js';
import { ProcessRuntime } from './runtime/process/index.js';
import type { ContainerRuntime } from './runtime/runtime.js';
import { KeyedBackoff } from '../util/keyed-backoff.js';
import { retryUntilDone } from './util/retry.js';
import { prepareDataDir } from '../util/data-dir.js';
import type { Pod } from '../api/core/index.js';

export interface AgentOptions {
  /** API server URL; or a kubeconfig (kubectl's rules when neither is given). */
  server?: string;
  kubeconfig?: string;
  /** An existing client (in-process `drover up`); the agent does not close it. */
  api?: ApiClient;
  nodeName: string;
  /** Pod volumes, process-runtime state, device assignments. */
  dataDir: string;
  /** Where local-path volumes' directories are made (default <dataDir>/storage); published on the Node. */
  localPathDir?: string;
  /** The runtime for pods without runtimeClassName (default docker); `process` pods always use the process runtime. */
  runtime?: 'docker' | 'process';
  /** Docker's socket; DOCKER_HOST or /var/run/docker.sock by default. */
  dockerSocket?: string;
  /**
   * Extended resources as device counts, e.g. { 'example.com/gpu': 2 }. NVIDIA GPUs are found
   * through nvidia-smi on the agent's PATH; a count for nvidia.com/gpu here overrides that.
   */
  extendedResources?: Record<string, number>;
  /** How often discovered GPUs are polled for health and metrics (default 30 s). */
  gpuPollMs?: number;
  /** The kernel log followed for OOM kills and GPU Xid errors (default /dev/kmsg; a test gives a file). */
  kernelLog?: string;
  labels?: Record<string, string>;
  /** Published as status.daemonEndpoints.kubeletEndpoint.Port (the streaming server's port). */
  streamingPort?: number;
  /** InternalIP of the node; hostPorts are published on it. Default 127.0.0.1. */
  nodeAddress?: string;
  logger?: Logger;
  /** Pods synced at once (default 16). */
  workers?: number;
  /** The cluster's address plan (pod and service CIDRs, DNS address and domain); k3s' defaults when unset. */
  network?: Partial<ClusterNetwork>;
  /**
   * Program the service rules and serve the cluster DNS (kube-proxy's and CoreDNS' jobs) on this
   * node. Default true; tests that share one machine's rules among many clusters turn it off.
   */
  serviceProxy?: boolean;
  /** How often containers' and the node's CPU and memory are sampled (default 15 s, metrics-server's resolution). */
  resourceSampleMs?: number;
  /** Docker sandboxes made ahead of their pods (pods/sandbox/pool.ts); `max: 0` turns the pool off. */
  sandboxPool?: Partial<SandboxPoolSettings>;
  /** How Docker sandboxes join the pod network (runtime/docker/direct-attach.ts; default direct). */
  podNetworkAttach?: PodNetworkAttach;
}

export interface Agent {
  readonly nodeName: string;
  /** What the streaming server asks: pass it as startStreamingServer's `resolver`. */
  readonly resolver: ContainerResolver;
  readonly runtimes: RuntimeSet;
  /** The pods of this node's containers, for the streaming server's /pods (the data checker). */
  readonly pods: PodInventory;
  /** The agent's metrics (the GPUs', under dcgm-exporter's names), for its /metrics. */
  readonly metrics: Registry;
  /** CPU and memory of the node and its containers, now and over the last hour (stats/). */
  readonly resources: ResourceSampler;
  /**
   * Stops the agent; the pods' containers and the service rules stay (a restarted agent adopts
   * them). `removeRules`: the agent leaves for good, its service rules go.
   */
  close(opts?: { removeRules?: boolean }): Promise<void>;
}

function runtimeSet(options: AgentOptions, nodeAddress: string, podCidr: string): { set: RuntimeSet; docker: DockerRuntime | undefined } {
  // Container cgroups are named by container id, so agents on one host share the parent.
  const processRuntime = new ProcessRuntime({ stateDir: join(options.dataDir, 'process'), hostIP: nodeAddress });
  const docker =
    options.runtime === 'process'
      ? undefined
      : new DockerRuntime({
          hostIP: nodeAddress,
          podCidr,
          ...(options.podNetworkAttach ? { podNetworkAttach: options.podNetworkAttach } : {}),
          // Pool sandboxes' claims are kept there (runtime/docker/sandbox-claims.ts).
          stateDir: join(options.dataDir, 'docker'),
          ...(options.dockerSocket ? { socketPath: options.dockerSocket } : {}),
        });
  const primary: ContainerRuntime = docker ?? processRuntime;
  const set: RuntimeSet = {
    primary,
    process: processRuntime,
    all: () => (docker ? [docker, processRuntime] : [processRuntime]),
    forPod: (pod: Pod) => (pod.spec.runtimeClassName === 'process' ? processRuntime : primary),
  };
  return { set, docker };
}

export async function startAgent(given: AgentOptions): Promise<Agent> {
  // Absolute from here on: container bind mounts are made from paths under it.
  const options: AgentOptions = { ...given, dataDir: await prepareDataDir(given.dataDir) };
  const logger = options.logger ?? consoleLogger(`agent ${options.nodeName}`);
  const nodeAddress = options.nodeAddress ?? '127.0.0.1';
  const extended = options.extendedResources ?? {};
  const ownsApi = options.api === undefined;
  const api =
    options.api ??
    (await ApiClient.load(
      { ...(options.kubeconfig ? { kubeconfig: options.kubeconfig } : {}), ...(options.server ? { server: options.server } : {}) },
      { userAgent: 'drover-agent' },
    ));
  // Known before any runtime object is listed or touched: it decides which are this agent's.
  const owner: Owner = { clusterId: await retryUntilDone('reading the cluster id', () => readClusterId(api), logger), nodeName: options.nodeName };
  const network = clusterNetwork(options.network);
  const serviceProxy = options.serviceProxy ?? true;
  const { set: runtimes, docker } = runtimeSet(options, nodeAddress, network.podCidr);
  const events = new PodEvents(new EventRecorder(api, 'kubelet', { host: options.nodeName, logger }));
  const gpus = await findNodeGpus(extended, options.dataDir, logger, options.gpuPollMs);
  const deviceCounts = { ...gpus.capacity, ...extended };
  const devices = new DeviceAllocator(deviceCounts, join(options.dataDir, 'devices.json'));
  devices.load();
  const services = new ServiceDirectory(api, logger);
  services.start();
  let manager: PodManager | undefined;
  // The local-path provisioner names volumes' directories under it; this agent makes and removes them.
  const localPathDir = resolve(options.localPathDir ?? join(options.dataDir, 'storage'));
  const deps: PodDeps = {
    api,
    owner,
    nodeAddress,
    dataDir: options.dataDir,
    localPathDir,
    allocatable: capacityOf(await hostFacts(options.dataDir), deviceCounts),
    runtimes,
    sources: new ConfigSource(api),
    tokens: new ServiceAccountTokenSource(api),
    devices,
    gpus: gpus.ids,
    events,
    puller: new ImagePuller(events),
    probes: new ProbeManager(events, (uid) => manager?.resync(uid)),
    cache: new InspectCache(),
    crashBackoff: new KeyedBackoff(),
    reaper: new SandboxReaper(logger),
    logger,
    // The node is made below; pods are synced only once it is registered.
    nodePodCidr: () => node.podCidr(),
    // Pods get the cluster DNS where this node serves it (known once its network started, before
    // any pod is synced); without it, ClusterFirst means the host's resolver.
    dns: { clusterDns: [], clusterDomain: network.clusterDomain, hostResolvConf: await readHostResolvConf() },
    services,
  };
  const kernelLog = new KernelLog(options.kernelLog);
  manager = new PodManager({ deps, api, logger, kernelLog, ...(options.workers ? { workers: options.workers } : {}) });
  let nodeNetwork: NodeNetwork | undefined;
  const node = new NodeManager({
    api,
    nodeName: options.nodeName,
    nodeAddress,
    streamingPort: options.streamingPort ?? 0,
    dataDir: options.dataDir,
    labels: options.labels ?? {},
    annotations: { [ANN_NODE_LOCAL_PATH_DIR]: localPathDir },
    extendedResources: extended,
    runtime: runtimes.primary,
    logger,
    devices: gpus.monitor && nodeDevices(gpus.monitor),
    onRuntimeReady: () => manager?.resyncAll(),
    onPodCidr: () => nodeNetwork?.podCidrAssigned(),
  });
  await retryUntilDone('node registration', () => node.register(), logger);
  // The Services before any pod: containers' service variables, and the rules pods will use.
  await services.waitForSync();
  try {
    nodeNetwork = await retryUntilDone(
      'the node network',
      () =>
        startNodeNetwork({
          network,
          podNetwork: docker?.ctx.podNetwork,
          directory: services,
          clusterId: owner.clusterId,
          nodeName: options.nodeName,
          nodeAddress,
          nodeRange: () => node.podCidr(),
          serviceProxy,
          logger,
        }),
      logger,
      (error) => error instanceof ServiceRangeInUseError,
    );
  } catch (error) {
    // A misconfiguration: the agent does not start, and leaves no watch behind.
    await services.stop();
    if (ownsApi) api.close();
    throw error;
  }
  if (nodeNetwork.servesDns) deps.dns.clusterDns = [network.clusterDns];
  node.start();
  const cleaner = new LocalPathCleaner(api, options.nodeName, localPathDir, logger);
  cleaner.start();
  if (gpus.monitor) startGpuMonitor(gpus.monitor, devices, kernelLog, () => node.refresh());
  await manager.start();
  const podNetworkAttachWarning = (why: string) => logger.warn(`pod sandboxes join the pod network through Docker's endpoint: ${why}`);
  void docker?.ctx.directAttach.unsupported().then((why) => {
    if (why && options.podNetworkAttach !== 'engine') podNetworkAttachWarning(why);
  });
  if (docker) docker.ctx.directAttach.onTurnedOff = podNetworkAttachWarning;
  // In the background: a starting agent first removes what a dead one left in the pool.
  const poolStarted = startSandboxPool({
    runtime: runtimes.primary,
    owner,
    reaper: deps.reaper,
    nodePodCidr: () => node.podCidr(),
    logger,
    settings: { ...DEFAULT_POOL, ...options.sandboxPool },
  }).then(
    (pool) => (deps.sandboxPool = pool),
    (error: unknown) => logger.warn('no sandbox pool: it could not start', { error }),
  );
  // Once every consumer is in: the first read is the kernel's replay, which each consumer judges.
  kernelLog.start(logger);
  const pods = manager;
  const metrics = agentRegistry(
    gpus.monitor,
    options.nodeName,
    gpuHolders(devices, (uid) => pods.podByUid(uid)),
  );
  const resources = new ResourceSampler({
    nodeName: options.nodeName,
    targets: runtimeTargets(() => runtimes.all(), owner),
    logger,
    ...(options.resourceSampleMs ? { intervalMs: options.resourceSampleMs } : {}),
  });
  resources.start();
  const podMetrics = registerContainerMetrics(metrics, resources, {
    running: async () => (await pods.inventory()).filter((p) => p.state === 'running').length,
    bound: () => pods.bound(),
  });
  pods.onPodStarted = podMetrics.podStarted;
  const resolver = createResolver(owner, runtimes, (ns, name) => pods.pod(ns, name));
  return {
    nodeName: options.nodeName,
    runtimes,
    resolver,
    pods: { nodeName: options.nodeName, list: () => pods.inventory(), cleanUp: (uid) => pods.cleanUpUnknown(uid) },
    metrics,
    resources,
    async close(opts = {}) {
      await cleaner.stop();
      resources.stop();
      await gpus.monitor?.stop();
      await kernelLog.stop();
      await pods.stop();
      await poolStarted;
      await deps.sandboxPool?.stop();
      await deps.reaper.drain();
      await nodeNetwork?.stop({ removeRules: opts.removeRules ?? false });
      await services.stop();
      await node.stop();
      await events.flush();
      if (ownsApi) api.close();
    },
  };
}
