// The `drover` command. Argument parsing only: each command calls an exported function.
import { Command, InvalidArgumentError, Option } from 'commander';
// Each command loads only its own modules: a `drover server` never loads the agent or Docker client.
import type { NodeOptions } from '../cluster/node.js';
import type { PodNetworkAttach } from '../agent/runtime/docker/direct-attach.js';
import type { UpOptions } from '../cluster/up.js';
import type { ServerOptions } from '../cluster/server.js';
import type { CheckCommandOptions } from './check.js';
import type { SignalOptions } from './signal.js';
import type { SimulationOptions } from '../simulate/simulation.js';
import type { AuditOptions } from '../apiserver/audit/auditor.js';
import { resolvePathOptions } from './paths.js';
import { alreadyReported, startProgress, type StartProgress } from './start-progress.js';
import { parseQuantity } from '../api/validation/quantity.js';
import type { PodSecurityLevel } from '../apiserver/admission/pod-security/policy.js';
import {
  clusterNetwork,
  DEFAULT_CLUSTER_DOMAIN,
  DEFAULT_POD_CIDR,
  DEFAULT_SERVICE_CIDR,
  NODE_PREFIX,
  parseCidr,
  type ClusterNetwork,
} from '../api/cluster-network.js';

function port(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65535) throw new InvalidArgumentError('must be a port number (0-65535)');
  return number;
}

/** `--extended-resource example.com/gpu=2`, repeatable. */
function collectCounts(value: string, previous: Record<string, number>): Record<string, number> {
  const [name, count] = value.split('=');
  const number = Number(count);
  if (!name || !Number.isInteger(number) || number < 0) throw new InvalidArgumentError('expected name=count, e.g. example.com/gpu=2');
  return { ...previous, [name]: number };
}

/** `--node-label zone=eu-1`, repeatable. */
function collectPairs(value: string, previous: Record<string, string>): Record<string, string> {
  const at = value.indexOf('=');
  if (at <= 0) throw new InvalidArgumentError('expected key=value');
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}

function nonNegativeInt(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new InvalidArgumentError('must be a non-negative integer');
  return number;
}

function positiveInt(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('must be a positive integer');
  return number;
}

/** `--etcd-endpoints http://a:2379,http://b:2379`: client URLs (a bare host:port is http). */
function endpointList(value: string): string[] {
  const endpoints = value
    .split(',')
    .map((endpoint) => endpoint.trim())
    .filter(Boolean);
  if (endpoints.length === 0) throw new InvalidArgumentError('expected comma-separated etcd client URLs, e.g. http://127.0.0.1:2379');
  for (const endpoint of endpoints) {
    // TLS to etcd (client certificates) is not supported yet: members listen on loopback or a private network.
    if (/^[a-z]+:\/\//i.test(endpoint) && !endpoint.startsWith('http://')) throw new InvalidArgumentError(`${endpoint}: expected an http:// URL`);
    if (!URL.canParse(endpoint.startsWith('http://') ? endpoint : `http://${endpoint}`)) throw new InvalidArgumentError(`${endpoint}: not a URL`);
  }
  return endpoints;
}

/** `--node-memory 256Gi`: a Kubernetes quantity of bytes. */
function byteQuantity(value: string): number {
  const bytes = parseQuantity(value);
  if (bytes === undefined || !(bytes > 0)) throw new InvalidArgumentError('expected a quantity of bytes, e.g. 256Gi');
  return Math.floor(bytes);
}

/** `--pod-security baseline`, for `server` and `up` alike. */
function podSecurityOption(): Option {
  return new Option(
    '--pod-security <level>',
    'Pod Security level enforced, warned and audited in namespaces without pod-security.kubernetes.io labels (kube-system excepted)',
  )
    .choices(['privileged', 'baseline', 'restricted'])
    .default('privileged');
}

/** kube-controller-manager's flag (seconds here); tests set it low to see scaling within a minute. */
function hpaSyncPeriodOption(): Option {
  return new Option('--horizontal-pod-autoscaler-sync-period <seconds>', 'seconds between passes of each HorizontalPodAutoscaler')
    .argParser(positiveInt)
    .default(15);
}

/** `--no-service-proxy`, for `agent` and `up`: a node that leaves Services and DNS to something else. */
function serviceProxyOption(): Option {
  return new Option('--no-service-proxy', 'do not program service rules or serve the cluster DNS on this node');
}

/** `--sandbox-pool-min/max`, for `agent` and `up`: Docker sandboxes made ahead of their pods (src/agent/pods/sandbox/pool.ts; defaults there). */
function sandboxPoolMinOption(): Option {
  return new Option('--sandbox-pool-min <n>', 'pod sandboxes kept ready ahead of their pods however quiet the node is (default 2)').argParser(nonNegativeInt);
}

function sandboxPoolMaxOption(): Option {
  return new Option('--sandbox-pool-max <n>', 'pod sandboxes kept ready at most, sized by recent bursts of pod starts (default 64; 0: no pool)').argParser(
    nonNegativeInt,
  );
}

/** `--pod-network-attach`, for `agent` and `up`: how Docker sandboxes join the pod network (src/agent/runtime/docker/direct-attach.ts). */
function podNetworkAttachOption(): Option {
  return new Option(
    '--pod-network-attach <how>',
    "how pod sandboxes join the pod network: direct (a veth pair the agent makes; the default where the agent may) or engine (Docker's endpoint, with its DNS server in every pod)",
  ).choices(['direct', 'engine']);
}

/** The agent's sandbox flags (--sandbox-pool-min/max, --pod-network-attach) as node options. */
function sandboxSettings(flags: { sandboxPoolMin?: number; sandboxPoolMax?: number; podNetworkAttach?: string }): {
  sandboxPool?: { min?: number; max?: number };
  podNetworkAttach?: PodNetworkAttach;
} {
  const pool = {
    ...(flags.sandboxPoolMin === undefined ? {} : { min: flags.sandboxPoolMin }),
    ...(flags.sandboxPoolMax === undefined ? {} : { max: flags.sandboxPoolMax }),
  };
  return {
    ...(Object.keys(pool).length === 0 ? {} : { sandboxPool: pool }),
    ...(flags.podNetworkAttach ? { podNetworkAttach: flags.podNetworkAttach as PodNetworkAttach } : {}),
  };
}

/** The flags `drover agent` and `drover up` share for the node they run. */
interface NodeCommandOptions {
  serviceProxy: boolean;
  sandboxPoolMin?: number;
  sandboxPoolMax?: number;
  podNetworkAttach?: string;
}

function withNodeOptions(command: Command): Command {
  return command.addOption(serviceProxyOption()).addOption(sandboxPoolMinOption()).addOption(sandboxPoolMaxOption()).addOption(podNetworkAttachOption());
}

/** `--name-prefix hollow-`: the start of a Node name (lower-case DNS subdomain characters). */
function namePrefix(value: string): string {
  if (!/^[a-z0-9]([-a-z0-9.]*)?$/.test(value))
    throw new InvalidArgumentError('expected lower-case letters, digits, "-" and ".", starting with a letter or digit');
  return value;
}

interface SimulateCommandOptions {
  nodes: number;
  kubeconfig?: string;
  server?: string;
  namePrefix: string;
  nodeCpu: number;
  nodeMemory: number;
  maxPods: number;
  nodeLabel: Record<string, string>;
  extendedResource: Record<string, number>;
  leaseRenewInterval: number;
}

interface ServerCommandOptions extends SecurityCommandOptions, NetworkCommandOptions, ControlPlaneCommandOptions {
  dataDir: string;
  port: number;
  watchHistory: number;
  controlPlane: boolean;
  nodeMonitorGracePeriod: number;
  podEvictionTimeout: number;
  eventTtl: number;
  etcdEndpoints?: string[];
  etcdPrefix: string;
  etcdCompactionInterval: number;
  etcdRequestTimeout: number;
  watchCache: boolean;
}

/** `--audit-log` and its companions, on `drover server` and `drover up`. */
interface AuditFlags {
  auditLog?: string;
  auditPolicyFile?: string;
  auditLogMaxsize: number;
  auditLogMaxbackup: number;
}

function auditOptions(flags: AuditFlags): { audit?: AuditOptions } {
  if (flags.auditLog === undefined) {
    if (flags.auditPolicyFile !== undefined) throw new InvalidArgumentError('--audit-policy-file needs --audit-log');
    return {};
  }
  const audit: AuditOptions = { logPath: flags.auditLog, maxSizeMB: flags.auditLogMaxsize, maxBackups: flags.auditLogMaxbackup };
  if (flags.auditPolicyFile !== undefined) audit.policyFile = flags.auditPolicyFile;
  return { audit };
}

/** `--tls-san name`, repeatable or comma-separated, as k3s takes it. */
function collectNames(value: string, previous: string[]): string[] {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) throw new InvalidArgumentError('expected a DNS name or an IP address');
  return [...previous, ...names];
}

/** The options `drover server` and `drover up` share for who may reach the API, and how. */
interface SecurityCommandOptions extends AuditFlags {
  tlsSan: string[];
  tokenAuthFile?: string;
  token?: string;
  podSecurity: PodSecurityLevel;
  encryptionProviderConfig?: string;
}

function withSecurityOptions(command: Command): Command {
  return command
    .option('--tls-san <name>', 'another DNS name or IP address the serving certificate covers (repeatable)', collectNames, [])
    .option('--token-auth-file <file>', 'static bearer tokens, one "token,user,uid,\"group1,group2\"" line each')
    .addOption(podSecurityOption())
    .option(
      '--encryption-provider-config <path>',
      "Kubernetes' EncryptionConfiguration file (YAML or JSON): the resources it names are encrypted at rest (aesgcm, aescbc)",
    )
    .option(
      '--token <secret>',
      'the join token secret; servers sharing an etcd must be given the same (default: made at first start, kept in <data-dir>/token)',
    )
    .option('--audit-log <path>', 'write an audit log (audit.k8s.io/v1 Events, one JSON line each) to this file (mode 0600)')
    .option('--audit-policy-file <file>', 'audit.k8s.io/v1 Policy (YAML or JSON) choosing what --audit-log records (default: every request at Metadata level)')
    .option('--audit-log-maxsize <megabytes>', 'rotate the audit log at this size, to NAME-<UTC time>.log (0: never)', nonNegativeInt, 100)
    .option('--audit-log-maxbackup <files>', 'rotated audit logs kept (0: all)', nonNegativeInt, 10);
}

type SecurityServerOptions = Pick<ServerOptions, 'tlsSans' | 'tokenAuthFile' | 'token' | 'podSecurityDefault' | 'encryptionProviderConfig' | 'audit'>;

function securityOptions(options: SecurityCommandOptions): SecurityServerOptions {
  const chosen: SecurityServerOptions = { tlsSans: options.tlsSan, podSecurityDefault: options.podSecurity, ...auditOptions(options) };
  if (options.tokenAuthFile) chosen.tokenAuthFile = options.tokenAuthFile;
  if (options.token) chosen.token = options.token;
  if (options.encryptionProviderConfig) chosen.encryptionProviderConfig = options.encryptionProviderConfig;
  return chosen;
}

/** The cluster's address plan, as k3s' flags name it: on `drover server`, `drover up` and `drover agent`. */
interface NetworkCommandOptions {
  clusterCidr: string;
  serviceCidr: string;
  clusterDns?: string;
  clusterDomain: string;
}

function withNetworkOptions(command: Command): Command {
  return command
    .option('--cluster-cidr <cidr>', `pod addresses; each node gets a /${NODE_PREFIX} of them`, DEFAULT_POD_CIDR)
    .option('--service-cidr <cidr>', "Services' cluster IPs", DEFAULT_SERVICE_CIDR)
    .option('--cluster-dns <ip>', "the cluster DNS's service address (default: the tenth address of --service-cidr)")
    .option('--cluster-domain <domain>', 'the DNS domain of Services and pods', DEFAULT_CLUSTER_DOMAIN);
}

/** The plan the flags give, checked as a whole (overlaps, a DNS address outside the range): a bad one stops the command. */
function networkOptions(options: NetworkCommandOptions): ClusterNetwork {
  const given: Partial<ClusterNetwork> = { podCidr: options.clusterCidr, serviceCidr: options.serviceCidr, clusterDomain: options.clusterDomain };
  if (options.clusterDns !== undefined) given.clusterDns = options.clusterDns;
  // clusterNetwork's messages name the flag at fault.
  return clusterNetwork(given);
}

/** What `drover server` and `drover up` take for the controllers and data checker they run, and for Prometheus. */
interface ControlPlaneCommandOptions {
  dataCheckInterval: number;
  dataCheckRepair?: boolean;
  printPrometheusConfig?: boolean;
  horizontalPodAutoscalerSyncPeriod: number;
}

function withControlPlaneOptions(command: Command): Command {
  return command
    .option('--data-check-interval <seconds>', 'seconds between data-check rounds (0: only `drover check`)', nonNegativeInt, 1200)
    .option('--data-check-repair', 'data-check rounds also repair what changes objects (delete, mark lost)')
    .option(
      '--print-prometheus-config',
      "print a Prometheus scrape configuration for this data dir's cluster and exit (issues Prometheus a client certificate)",
    )
    .addOption(hpaSyncPeriodOption());
}

function controlPlaneSettings(options: ControlPlaneCommandOptions): Pick<ServerOptions, 'dataCheck' | 'controllerSettings'> {
  return {
    dataCheck: { intervalSeconds: options.dataCheckInterval, repair: options.dataCheckRepair === true },
    controllerSettings: { hpaSyncPeriodMs: options.horizontalPodAutoscalerSyncPeriod * 1000 },
  };
}

/** The options `drover server` and `drover up` share: the control plane's, then who may reach the API and how. */
function withServerOptions(command: Command): Command {
  return withSecurityOptions(withControlPlaneOptions(command));
}

/** `--cluster-cidr` alone (`drover controller-manager`), held to the same rules as in the whole plan. */
function podCidr(value: string): string {
  const cidr = parseCidr(value);
  if (!cidr) throw new InvalidArgumentError('expected an IPv4 CIDR such as 10.42.0.0/16 (host bits must be zero)');
  if (cidr.prefix > NODE_PREFIX) throw new InvalidArgumentError(`too small: a prefix of /${NODE_PREFIX} or shorter is needed`);
  return value;
}

/** `--print-prometheus-config`: the scrape configuration for the cluster of a data dir, on stdout. */
async function printPrometheusConfig(dataDir: string): Promise<void> {
  const { issuePrometheusScrapeConfig } = await import('../cluster/prometheus-config.js');
  process.stdout.write(await issuePrometheusScrapeConfig(dataDir));
}

/** Runs a start with its progress shown: done when it resolves, the failure and what to do when it throws. */
async function reportingProgress<T>(progress: StartProgress, start: () => Promise<T>): Promise<T> {
  try {
    const started = await start();
    progress.done();
    return started;
  } catch (error) {
    progress.failed(error);
    throw error;
  }
}

/** The dashboard's line: the admin's sign-in address on a terminal, never into a log. */
async function dashboardLineFor(server: { api: { url: string }; dashboard: { token: string; path: string } }): Promise<string> {
  const { dashboardLine } = await import('../auth/authn/dashboard-token.js');
  return dashboardLine(server.api.url, server.dashboard, process.stdout.isTTY === true);
}

/** Stops `close` on SIGINT/SIGTERM exactly once, then exits. */
function stopOnSignals(close: () => Promise<void>): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`received ${signal}, shutting down`);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

export function buildProgram(): Command {
  const program = new Command('drover').description('A container orchestrator that speaks the Kubernetes API').version('0.1.0');
  // At the door: every command's path options become absolute (and data dirs usable) first.
  program.hook('preAction', (_program, command) => resolvePathOptions(command));
  withNetworkOptions(
    withServerOptions(
      program
        .command('server')
        .description('run the API server with its state in an embedded SQLite store, or in etcd (--etcd-endpoints)')
        .option('--data-dir <dir>', 'where state and the kubeconfig live', '.drover')
        .option('--port <port>', 'port to serve the API on (127.0.0.1)', port, 6443)
        .option('--watch-history <revisions>', 'revisions of watch history kept; older watches get 410 Expired (SQLite)', positiveInt, 10_000)
        .option('--etcd-endpoints <urls>', 'keep state in etcd, at these comma-separated client URLs (e.g. http://127.0.0.1:2379)', endpointList)
        .option('--etcd-prefix <prefix>', 'put before every etcd key, to keep clusters apart in one etcd', '')
        .option('--etcd-compaction-interval <seconds>', 'seconds between compactions of etcd history (0: never)', nonNegativeInt, 300)
        .option('--etcd-request-timeout <seconds>', 'seconds an etcd call may take before the request fails with 503', positiveInt, 5)
        .option('--no-watch-cache', "on etcd, read every list from etcd instead of each resource's watch cache (kube-apiserver's --watch-cache=false)")
        .option('--no-control-plane', 'serve the API only; run the scheduler and controllers elsewhere')
        .option('--node-monitor-grace-period <seconds>', 'a node whose Lease is older than this is unreachable', positiveInt, 40)
        .option('--pod-eviction-timeout <seconds>', 'pods on an unreachable node are deleted after this long', positiveInt, 60)
        .option('--event-ttl <seconds>', 'Events older than this are deleted', positiveInt, 3600),
    ),
  ).action(async (options: ServerCommandOptions) => {
    if (options.printPrometheusConfig) return printPrometheusConfig(options.dataDir);
    const network = networkOptions(options);
    const [{ startServer }, { serverPhases }] = await Promise.all([import('../cluster/server.js'), import('../cluster/start-phases.js')]);
    const progress = startProgress('drover server', serverPhases(options.controlPlane !== false));
    const server = await reportingProgress(progress, () =>
      startServer({
        onPhase: progress.onPhase,
        ...securityOptions(options),
        network,
        dataDir: options.dataDir,
        port: options.port,
        watchHistory: options.watchHistory,
        controlPlane: options.controlPlane,
        eventTtlSeconds: options.eventTtl,
        nodeLifecycle: { gracePeriodSeconds: options.nodeMonitorGracePeriod, podEvictionTimeoutSeconds: options.podEvictionTimeout },
        ...controlPlaneSettings(options),
        ...(options.etcdEndpoints === undefined
          ? {}
          : {
              etcd: {
                endpoints: options.etcdEndpoints,
                keyPrefix: options.etcdPrefix,
                compactionIntervalSeconds: options.etcdCompactionInterval,
                requestTimeoutSeconds: options.etcdRequestTimeout,
                watchCache: options.watchCache,
              },
            }),
      }),
    );
    console.log(`drover API server listening on ${server.api.url}`);
    console.log(`kubeconfig: ${server.kubeconfigPath}`);
    console.log(`join token: ${server.tokenFile} (drover agent --server ${server.api.url} --token "$(cat ${server.tokenFile})")`);
    console.log(`try: kubectl --kubeconfig ${server.kubeconfigPath} get namespaces`);
    // Last, so it is the line a person sees; the token in it is the admin's (dashboard-token.ts).
    console.log(await dashboardLineFor(server));
    stopOnSignals(() => server.close());
  });
  withNetworkOptions(
    withServerOptions(
      withNodeOptions(
        program
          .command('up')
          .description('run a whole cluster on this machine: API server, scheduler, controllers and a node')
          .option('--data-dir <dir>', 'where state, the kubeconfig and pod data live', '.drover')
          .option('--port <port>', 'port to serve the API on (127.0.0.1)', port, 6443)
          .option('--node-name <name>', "this machine's node name (default: the hostname)")
          .option('--extended-resource <name=count>', 'a device resource, e.g. example.com/gpu=2 (repeatable)', collectCounts, {})
          .option('--node-label <key=value>', 'a label for the node (repeatable)', collectPairs, {}),
      ),
    ),
  ).action(
    async (
      options: SecurityCommandOptions &
        NetworkCommandOptions &
        ControlPlaneCommandOptions &
        NodeCommandOptions & {
          dataDir: string;
          port: number;
          nodeName?: string;
          extendedResource: Record<string, number>;
          nodeLabel: Record<string, string>;
        },
    ) => {
      if (options.printPrometheusConfig) return printPrometheusConfig(options.dataDir);
      const upOptions: UpOptions = {
        ...securityOptions(options),
        network: networkOptions(options),
        serviceProxy: options.serviceProxy,
        dataDir: options.dataDir,
        port: options.port,
        extendedResources: options.extendedResource,
        labels: options.nodeLabel,
        ...controlPlaneSettings(options),
        ...sandboxSettings(options),
      };
      if (options.nodeName) upOptions.nodeName = options.nodeName;
      const [{ startUp }, { serverPhases }] = await Promise.all([import('../cluster/up.js'), import('../cluster/start-phases.js')]);
      const progress = startProgress('drover up', [...serverPhases(true), 'node']);
      upOptions.onPhase = progress.onPhase;
      const cluster = await reportingProgress(progress, () => startUp(upOptions));
      console.log(`drover API server listening on ${cluster.server.api.url}`);
      console.log(`node ${cluster.node.agent.nodeName} ready`);
      console.log(`kubeconfig: ${cluster.server.kubeconfigPath}`);
      console.log(
        `join token: ${cluster.server.tokenFile} (more nodes: drover agent --server ${cluster.server.api.url} --token "$(cat ${cluster.server.tokenFile})")`,
      );
      console.log(
        `try: export KUBECONFIG=${cluster.server.kubeconfigPath}; kubectl run hello --image=drover-test/busybox:1 -- sh -c 'trap exit TERM; while true; do date; sleep 2; done'`,
      );
      console.log(await dashboardLineFor(cluster.server));
      stopOnSignals(() => cluster.close());
    },
  );

  withNetworkOptions(
    withNodeOptions(
      program
        .command('agent')
        .description('run a node agent that registers this machine and runs the pods bound to it')
        .option('--node-name <name>', 'the Node this agent registers (required)')
        .option('--cleanup', "remove every agent's service rules for --service-cidr on this machine and exit (an agent gone for good; kube-proxy's --cleanup)")
        .option('--server <urls>', 'API server URL, or several comma-separated: the agent moves on when one fails (default: from the kubeconfig)')
        .option(
          '--token <token>',
          "the cluster's join token (the server's <data-dir>/token): join with --server, keeping the node's certificate in <data-dir>/pki",
        )
        .option('--kubeconfig <path>', 'kubeconfig to use (default: $KUBECONFIG, then ~/.kube/config)')
        .option('--data-dir <dir>', "pod volumes, runtime state and the node's certificate", '.drover-agent')
        .option('--runtime <name>', 'default container runtime: docker or process', 'docker')
        .option(
          '--extended-resource <name=count>',
          'a device resource, e.g. example.com/gpu=2 (repeatable; nvidia.com/gpu=N overrides GPU discovery)',
          collectCounts,
          {},
        )
        .option('--node-label <key=value>', 'a label for the node (repeatable)', collectPairs, {})
        .option('--streaming-port <port>', 'port of the logs/exec/port-forward endpoint (0 picks one)', port, 0)
        .option('--gpu-poll-interval <seconds>', 'seconds between nvidia-smi polls of the GPUs found on the PATH (health, metrics)', positiveInt, 30)
        // Hidden until the README's agent row describes it (test/readme-cli): tests point it at a file.
        .option('--kernel-log <path>', 'the kernel log to follow for OOM kills and GPU Xid errors', '/dev/kmsg')
        .option('--local-path-dir <dir>', "where local-path volumes' directories are made (default: <data-dir>/storage)"),
    ),
  ).action(
    async (
      options: NetworkCommandOptions &
        NodeCommandOptions & {
          nodeName?: string;
          cleanup?: boolean;
          server?: string;
          token?: string;
          kubeconfig?: string;
          dataDir: string;
          runtime: string;
          extendedResource: Record<string, number>;
          nodeLabel: Record<string, string>;
          streamingPort: number;
          gpuPollInterval: number;
          kernelLog: string;
          localPathDir?: string;
        },
    ) => {
      if (options.cleanup) {
        const { removeRangeRules } = await import('../agent/network/host-rules.js');
        const { serviceCidr } = networkOptions(options);
        const removed = await removeRangeRules(serviceCidr);
        console.log(`removed the service rules of ${removed.length} agent(s) for ${serviceCidr}`);
        return;
      }
      if (!options.nodeName) throw new InvalidArgumentError("required option '--node-name <name>' not specified");
      if (options.runtime !== 'docker' && options.runtime !== 'process') throw new InvalidArgumentError('--runtime must be docker or process');
      const nodeOptions: NodeOptions = {
        network: networkOptions(options),
        serviceProxy: options.serviceProxy,
        nodeName: options.nodeName,
        dataDir: options.dataDir,
        runtime: options.runtime,
        extendedResources: options.extendedResource,
        labels: options.nodeLabel,
        streamingPort: options.streamingPort,
        gpuPollMs: options.gpuPollInterval * 1000,
        kernelLog: options.kernelLog,
        ...sandboxSettings(options),
      };
      if (options.localPathDir) nodeOptions.localPathDir = options.localPathDir;
      if (options.server) nodeOptions.server = options.server;
      if (options.kubeconfig) nodeOptions.kubeconfig = options.kubeconfig;
      if (options.token !== undefined) {
        if (!options.server) throw new InvalidArgumentError('--token needs --server: the URL of an API server of the cluster to join');
        nodeOptions.token = options.token;
      }
      const { startNode } = await import('../cluster/node.js');
      const node = await startNode(nodeOptions);
      console.log(`node ${node.agent.nodeName} ready (streaming on ${node.streaming.url})`);
      stopOnSignals(() => node.close());
    },
  );

  program
    .command('signal <pod> <signal>')
    .description('send a signal (e.g. SIGUSR1, HUP, 10) to a container of a running pod')
    .option('-c, --container <name>', 'the container (default: the only one)')
    .option('-n, --namespace <namespace>', "the namespace (default: the kubeconfig context's)")
    .option('--kubeconfig <path>', 'kubeconfig to use (default: $KUBECONFIG, then ~/.kube/config)')
    .action(async (pod: string, signal: string, options: SignalOptions) => {
      const { sendSignal } = await import('./signal.js');
      console.log(await sendSignal(pod, signal, options));
    });

  program
    .command('check')
    .description('run a data-check round in the leading server now and print its report (exit 1 when something is left unrepaired)')
    .option('--repair', 'also run the repairs that change objects (delete pods on vanished nodes, mark lost pods, ...)')
    .option('--timeout <seconds>', 'how long to wait for the round', positiveInt, 120)
    .option('--kubeconfig <path>', 'kubeconfig to use (default: $KUBECONFIG, then ~/.kube/config)')
    .action(async (options: CheckCommandOptions) => {
      const { runCheckCommand } = await import('./check.js');
      const { output, clean } = await runCheckCommand(options);
      console.log(output);
      if (!clean) process.exitCode = 1;
    });

  program
    .command('controller-manager')
    .description('run the workload controllers against an API server; several share the work as a farm')
    .option('--kubeconfig <path>', 'kubeconfig to use (default: $KUBECONFIG, then ~/.kube/config)')
    .option('--server <url>', 'API server URL (overrides the kubeconfig)')
    .option('--identity <name>', 'this member of the farm (default: hostname and pid)')
    .option('--shards <n>', 'shards the work is split into; the same for every member', positiveInt, 8)
    .option('--metrics-port <port>', 'serve /metrics on 127.0.0.1 at this port (0: any free port)', port)
    .option('--cluster-cidr <cidr>', `pod addresses, from which node IPAM gives each Node a /${NODE_PREFIX}`, podCidr, DEFAULT_POD_CIDR)
    .addOption(hpaSyncPeriodOption())
    .action(
      async (options: {
        kubeconfig?: string;
        server?: string;
        identity?: string;
        shards: number;
        metricsPort?: number;
        clusterCidr: string;
        horizontalPodAutoscalerSyncPeriod: number;
      }) => {
        const { runControllerManager } = await import('../cluster/standalone.js');
        const controllers = await runControllerManager({
          client: options,
          identity: options.identity,
          shards: options.shards,
          clusterCidr: options.clusterCidr,
          hpaSyncPeriodSeconds: options.horizontalPodAutoscalerSyncPeriod,
          metricsPort: options.metricsPort,
        });
        console.log(`drover controller-manager "${controllers.identity}" running (${options.shards} shards)`);
        if (controllers.metricsUrl) console.log(`metrics: ${controllers.metricsUrl}`);
        stopOnSignals(() => controllers.stop());
      },
    );

  program
    .command('scheduler')
    .description('run the scheduler alone against an API server (as kube-scheduler does)')
    .option('--kubeconfig <path>', 'kubeconfig to use (default: $KUBECONFIG, then ~/.kube/config)')
    .option('--server <url>', 'API server URL (overrides the kubeconfig)')
    .option('--scheduler-name <name>', 'schedule the pods whose spec.schedulerName is this', 'default-scheduler')
    .action(async (options: { kubeconfig?: string; server?: string; schedulerName: string }) => {
      const { runScheduler } = await import('../cluster/standalone.js');
      const scheduler = await runScheduler({ client: options, schedulerName: options.schedulerName });
      console.log(`drover scheduler "${options.schedulerName}" running (it schedules while it holds the Lease kube-system/${scheduler.leaseName})`);
      stopOnSignals(() => scheduler.stop());
    });
  program
    .command('simulate')
    .description('run N hollow nodes against an API server: Nodes with Leases that report their pods Running without starting them (as kubemark and kwok)')
    .requiredOption('--nodes <n>', 'how many hollow nodes to register and serve', positiveInt)
    .option('--kubeconfig <path>', 'kubeconfig to use (default: $KUBECONFIG, then ~/.kube/config)')
    .option('--server <url>', 'API server URL (overrides the kubeconfig)')
    .option('--name-prefix <prefix>', 'nodes are named PREFIX0 ... PREFIX(N-1)', namePrefix, 'hollow-')
    .option('--node-cpu <cores>', 'cpu capacity of each node', positiveInt, 32)
    .addOption(new Option('--node-memory <bytes>', 'memory capacity of each node, a quantity').argParser(byteQuantity).default(256 * 1024 ** 3, '256Gi'))
    .option('--max-pods <n>', 'pods capacity of each node', positiveInt, 110)
    .option('--node-label <key=value>', 'a label for every node (repeatable)', collectPairs, {})
    .option('--extended-resource <name=count>', 'a device resource on every node, e.g. example.com/gpu=8 (repeatable)', collectCounts, {})
    .option('--lease-renew-interval <seconds>', "seconds between each node's Lease renewals (the agent's 10 s)", positiveInt, 10)
    .action(async (options: SimulateCommandOptions) => {
      const simulation: SimulationOptions = {
        nodes: options.nodes,
        namePrefix: options.namePrefix,
        leaseRenewSeconds: options.leaseRenewInterval,
        shape: {
          cpu: options.nodeCpu,
          memoryBytes: options.nodeMemory,
          maxPods: options.maxPods,
          labels: options.nodeLabel,
          extendedResources: options.extendedResource,
        },
        onProgress: (registered, total) => console.log(`registered ${registered} of ${total} hollow nodes`),
      };
      if (options.kubeconfig) simulation.kubeconfig = options.kubeconfig;
      if (options.server) simulation.server = options.server;
      const { startSimulation } = await import('../simulate/simulation.js');
      const running = await startSimulation(simulation);
      const names = running.nodeNames;
      console.log(`drover simulate: ${names.length} hollow nodes ready (${names[0]} ... ${names[names.length - 1]})`);
      stopOnSignals(() => running.close());
    });
  return program;
}

// A bug in one request's handling must not take the whole control plane down with it.
process.on('unhandledRejection', (reason) => {
  console.error('unhandled rejection (kept running):', reason);
});

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    if (!alreadyReported(error)) console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
