// What the service rules need from the host, done with Debian's iptables and iproute2 as
// kube-proxy does: the agent's chains written in one `iptables-restore --noflush` transaction,
// the jumps into them from the built-in chains, the service range's unreachable route, a route
// into the pod network for each cluster IP in use, and route_localnet on the pod bridge.
//
// Routes: a packet the node itself sends is routed before the nat table sees it, so a cluster IP
// needs a route the unreachable one does not win over — a /32 into the pod bridge, for the cluster
// IPs that have rules. Pods' packets are translated before routing and need none.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { cidrContains, parseCidr } from '../../api/cluster-network.js';
import { processAlive, processRunning, procStatSync } from '../../util/process-alive.js';
import { chainPrefix } from './service-rules.js';

const XTABLES_WAIT_SECONDS = '5';

interface Run {
  stdout: string;
}

function run(command: string, args: string[], input?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')}: ${stderr.trim() || error.message}`));
      else resolve({ stdout });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

export interface Jump {
  chain: 'PREROUTING' | 'OUTPUT' | 'POSTROUTING';
  /** Matches before the jump, e.g. `-s 10.42.1.0/24`. */
  match: string;
  target: string;
  /** First in the chain (ahead of other agents' catch-alls), or last. */
  position: 'first' | 'last';
}

export interface HostIdentity {
  key: string;
  /** Written as the jumps' comment: `drover <cluster id> <node> <service CIDR> pid:<agent's pid>:<its start ticks>` (agentComment). */
  comment: string;
  serviceCidr: string;
}

/** Another cluster's live agent programs the same service range on this machine. */
export class ServiceRangeInUseError extends Error {
  constructor(range: string, holders: readonly string[]) {
    super(
      `the service range ${range} is in use on this machine by another cluster's agent (${holders.join('; ')}): ` +
        'give this cluster a --service-cidr (and --cluster-cidr) of its own, or stop that cluster',
    );
  }
}

function jumpSpec(jump: Jump, comment: string): string[] {
  return [...jump.match.split(' ').filter(Boolean), '-m', 'comment', '--comment', comment, '-j', jump.target];
}

async function hasRule(chain: string, spec: string[]): Promise<boolean> {
  return run('iptables', ['-w', XTABLES_WAIT_SECONDS, '-t', 'nat', '-C', chain, ...spec]).then(
    () => true,
    () => false,
  );
}

/** The nat table's chains and rules as iptables-save prints them. */
async function natTable(): Promise<string[]> {
  return (await run('iptables-save', ['-t', 'nat'])).stdout.split('\n');
}

/** Makes sure the service range fails here before any rule exists (DESIGN.md: the network). */
export async function ensureUnreachableRoute(serviceCidr: string): Promise<void> {
  await run('ip', ['route', 'replace', 'unreachable', serviceCidr]);
}

/** Lets the node's loopback addresses reach pods (NodePorts on 127.0.0.1) and pods reach 127.0.0.1 endpoints (the API server). */
export async function allowLoopbackRouting(bridge: string): Promise<void> {
  await writeFile(`/proc/sys/net/ipv4/conf/${bridge}/route_localnet`, '1');
}

/** Chains of ours (DRV-<key>-…) the nat table has now. */
async function chainsInTable(key: string): Promise<string[]> {
  const prefix = chainPrefix(key);
  return (await natTable()).filter((line) => line.startsWith(`:${prefix}`)).map((line) => line.slice(1).split(' ')[0]!);
}

/**
 * Writes chains in one transaction: each chain of `chains` is flushed (declared) and filled with
 * its rules, each of `remove` flushed and deleted. `sweep`: also delete every other chain of ours
 * the table has (a full write: nothing stale survives it). Jumps to removed chains must be gone,
 * or go in the same transaction (a rewritten chain that no longer jumps there).
 */
export async function writeChains(
  identity: HostIdentity,
  chains: ReadonlyMap<string, readonly string[]>,
  options: { remove?: readonly string[]; sweep?: boolean } = {},
): Promise<void> {
  const remove = new Set(options.remove ?? []);
  if (options.sweep) for (const chain of await chainsInTable(identity.key)) if (!chains.has(chain)) remove.add(chain);
  const declared = [...chains.keys(), ...remove];
  if (declared.length === 0) return;
  const input = [
    '*nat',
    ...declared.map((chain) => `:${chain} - [0:0]`),
    ...[...chains.values()].flat(),
    ...[...remove].map((chain) => `-X ${chain}`),
    'COMMIT',
    '',
  ].join('\n');
  await run('iptables-restore', ['-w', XTABLES_WAIT_SECONDS, '--noflush'], input);
}

export async function ensureJumps(identity: HostIdentity, jumps: readonly Jump[]): Promise<void> {
  for (const jump of jumps) {
    const spec = jumpSpec(jump, identity.comment);
    if (await hasRule(jump.chain, spec)) continue;
    const where = jump.position === 'first' ? ['-I', jump.chain, '1'] : ['-A', jump.chain];
    await run('iptables', ['-w', XTABLES_WAIT_SECONDS, '-t', 'nat', ...where, ...spec]);
  }
}

/** The jumps of agents in the nat table, by the comment each wrote. */
interface ForeignJump {
  chain: string;
  spec: string[];
  comment: string;
}

async function jumpsOf(filter: (comment: string) => boolean): Promise<ForeignJump[]> {
  const found: ForeignJump[] = [];
  for (const line of await natTable()) {
    const match = /^-A (PREROUTING|OUTPUT|POSTROUTING) (?:(.*) )?-m comment --comment "?(drover [^"]*?)"? -j (DRV-[0-9a-f]{8}-\w+)$/.exec(line);
    if (!match || !filter(match[3]!)) continue;
    const spec = [...(match[2] ?? '').split(' ').filter(Boolean), '-m', 'comment', '--comment', match[3]!, '-j', match[4]!];
    found.push({ chain: match[1]!, spec, comment: match[3]! });
  }
  return found;
}

/** Deletes an agent's jumps and then its chains (by the key in the chains' names). */
async function removeAgent(key: string, comment: string): Promise<void> {
  for (const jump of await jumpsOf((c) => c === comment)) {
    await run('iptables', ['-w', XTABLES_WAIT_SECONDS, '-t', 'nat', '-D', jump.chain, ...jump.spec]).catch(() => undefined);
  }
  await writeChains({ key, comment, serviceCidr: '' }, new Map(), { sweep: true });
}

/** Removes this agent's rules, jumps first. */
export async function removeRules(identity: HostIdentity): Promise<void> {
  await removeAgent(identity.key, identity.comment);
}

/** Removes the rules of the agents that wrote these jumps (by the comment each wrote); returns their comments. */
async function removeAgents(jumps: readonly ForeignJump[]): Promise<string[]> {
  const comments = [...new Set(jumps.map((jump) => jump.comment))];
  for (const comment of comments) {
    const key = jumps
      .find((jump) => jump.comment === comment)!
      .spec.at(-1)!
      .split('-')[1]!;
    await removeAgent(key, comment);
  }
  return comments;
}

const rangeOf = (comment: string): string | undefined => comment.split(' ')[3];
const clusterOf = (comment: string): string | undefined => comment.split(' ')[1];

/**
 * The comment on an agent's jumps: who wrote them, and the process (its pid and start time, as
 * /proc gives them: a stopped agent's pid may belong to another process by the time a later
 * cluster looks, and must not make its rules look alive).
 */
export function agentComment(clusterId: string, nodeName: string, serviceCidr: string, pid = process.pid): string {
  return `drover ${clusterId} ${nodeName} ${serviceCidr} pid:${pid}:${procStatSync(pid)?.startTicks ?? 0}`;
}

const WRITER = / pid:(\d+)(?::(\d+))?$/;

/** Whether the agent that wrote a comment still runs (agents of this machine only write them); comments of older agents carry no start time. */
export function writerAlive(comment: string): boolean {
  const [, pid, startTicks] = WRITER.exec(comment) ?? [];
  if (startTicks === undefined) return processAlive(Number(pid));
  return processRunning(Number(pid), Number(startTicks));
}

/**
 * Rules another cluster left for the same service range (an agent killed for good, a test run
 * cut short) are removed; two live clusters can't share one range on a machine, so one whose
 * agent still runs is an error (ServiceRangeInUseError) rather than a silent takeover.
 */
export async function removeOtherClustersRules(identity: HostIdentity, clusterId: string): Promise<string[]> {
  const others = await jumpsOf((comment) => rangeOf(comment) === identity.serviceCidr && clusterOf(comment) !== clusterId);
  const live = [...new Set(others.map((jump) => jump.comment))].filter(writerAlive);
  if (live.length > 0) throw new ServiceRangeInUseError(identity.serviceCidr, live);
  return removeAgents(others);
}

/**
 * Every agent's rules for a service range, and its cluster IPs' routes (`drover agent --cleanup`,
 * and tests cleaning up after a cluster they stopped). The range's unreachable route stays.
 */
export async function removeRangeRules(serviceCidr: string): Promise<string[]> {
  const removed = await removeAgents(await jumpsOf((comment) => rangeOf(comment) === serviceCidr));
  const range = parseCidr(serviceCidr);
  const routes = (await run('ip', ['-4', '-o', 'route', 'show'])).stdout
    .split('\n')
    .map((line) => /^(\d+\.\d+\.\d+\.\d+) dev (drv-[0-9a-f]{8}) /.exec(line))
    .filter((match): match is RegExpExecArray => match !== null && range !== undefined && cidrContains(range, match[1]!));
  if (routes.length > 0) await run('ip', ['-force', '-batch', '-'], routes.map((m) => `route del ${m[1]}/32 dev ${m[2]}`).join('\n') + '\n');
  return removed;
}

/** The jumps an earlier run of this agent wrote (its pid in their comment): the chains are the same, the jumps go. */
export async function removeEarlierJumps(identity: HostIdentity): Promise<void> {
  const self = identity.comment.replace(WRITER, '');
  for (const jump of await jumpsOf((comment) => comment !== identity.comment && comment.replace(WRITER, '') === self)) {
    await run('iptables', ['-w', XTABLES_WAIT_SECONDS, '-t', 'nat', '-D', jump.chain, ...jump.spec]).catch(() => undefined);
  }
}

/** Whether another agent of the cluster on this host still has rules (it keeps the routes then). */
export async function otherAgentsOfCluster(identity: HostIdentity, clusterId: string): Promise<boolean> {
  return (await jumpsOf((comment) => clusterOf(comment) === clusterId && comment !== identity.comment)).length > 0;
}

/** Routes each given cluster IP into the pod bridge and drops such routes of the range that are no longer wanted. */
export async function syncServiceRoutes(serviceCidr: string, bridge: string, wanted: readonly string[]): Promise<void> {
  const range = parseCidr(serviceCidr);
  if (!range) return;
  const shown = (await run('ip', ['-4', '-o', 'route', 'show', 'dev', bridge])).stdout.split('\n');
  const present = new Set(shown.map((line) => line.split(' ')[0]!).filter((dest) => /^\d+\.\d+\.\d+\.\d+$/.test(dest) && cidrContains(range, dest)));
  const want = new Set(wanted);
  const commands = [
    ...[...want].filter((ip) => !present.has(ip)).map((ip) => `route replace ${ip}/32 dev ${bridge} scope link`),
    ...[...present].filter((ip) => !want.has(ip)).map((ip) => `route del ${ip}/32 dev ${bridge}`),
  ];
  if (commands.length > 0) await run('ip', ['-force', '-batch', '-'], commands.join('\n') + '\n');
}
