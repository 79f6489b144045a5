// Everything a pod worker uses, shared by all pods of the agent.
import type { ApiClient, Logger } from '../../client/index.js';
import type { Owner } from '../agent-labels.js';
import type { DnsSettings } from './dns/resolv-conf.js';
import type { ServiceDirectory } from '../network/service-directory.js';
import type { ContainerRuntime } from '../runtime/runtime.js';
import type { KeyedBackoff } from '../../util/keyed-backoff.js';
import type { ConfigSource } from './config-source.js';
import type { DeviceAllocator, DeviceIds } from './devices.js';
import type { ImagePuller } from './containers/image-puller.js';
import type { InspectCache } from './observe.js';
import type { PodEvents } from './events.js';
import type { ProbeManager } from './probes/manager.js';
import type { SandboxReaper } from './sandbox/reaper.js';
import type { SandboxPool } from './sandbox/pool.js';
import type { ServiceAccountTokenSource } from './volumes/service-account-tokens.js';
import type { Pod } from '../../api/core/index.js';

export interface RuntimeSet {
  /** The node's default runtime (docker unless the agent was told otherwise). */
  primary: ContainerRuntime;
  /** runtimeClassName: process. */
  process: ContainerRuntime | undefined;
  /** Every runtime, for clean-up and adoption. */
  all(): ContainerRuntime[];
  forPod(pod: Pod): ContainerRuntime;
}

export interface PodDeps {
  api: ApiClient;
  /** This agent's cluster and node: the only runtime objects it lists, adopts or removes. */
  owner: Owner;
  nodeAddress: string;
  dataDir: string;
  /** Where local-path volumes' directories are made: the only place the agent makes them. */
  localPathDir: string;
  allocatable: Readonly<Record<string, string>>;
  runtimes: RuntimeSet;
  sources: ConfigSource;
  /** Pods' service-account tokens (projected kube-api-access volumes). */
  tokens: ServiceAccountTokenSource;
  devices: DeviceAllocator;
  /** Present on a node with nvidia.com/gpu: ids (UUIDs when discovered) by allocator index. */
  gpus?: { ids: DeviceIds } | undefined;
  puller: ImagePuller;
  events: PodEvents;
  probes: ProbeManager;
  cache: InspectCache;
  crashBackoff: KeyedBackoff;
  /** Removes deleted pods' sandboxes between sandbox starts. */
  reaper: SandboxReaper;
  /** Sandboxes made ahead of their pods, when the node has a pool (set once it has started). */
  sandboxPool?: SandboxPool | undefined;
  logger: Logger;
  /** The node's pod CIDR (spec.podCIDR) once assigned: pods' addresses are picked in it. */
  nodePodCidr: () => string | undefined;
  /** The cluster DNS and the host's resolver, for pods' resolv.conf. */
  dns: DnsSettings;
  /** The cluster's Services: the Docker-link variables of new containers (enableServiceLinks). */
  services: ServiceDirectory;
}
