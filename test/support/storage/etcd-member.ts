// For tests: a real etcd member (Debian's etcd-server, see scripts/ensure-etcd.sh) on free
// loopback ports with a temporary data directory, stopped and removed afterwards. It can be
// stopped and started again on the same ports and data, or paused (SIGSTOP) to look hung.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { freePort } from '../free-port.js';
import { runRepoScript } from '../repo.js';
import { StopWaiting, waitFor } from '../wait-for.js';

export interface EtcdMember {
  /** The client URL, http://127.0.0.1:PORT. */
  readonly endpoint: string;
  readonly dataDir: string;
  output(): string;
  /** Stops the member (SIGTERM, then SIGKILL), keeping its data. */
  stop(): Promise<void>;
  /** Starts it again on the same ports and data. */
  restart(): Promise<void>;
  /** SIGSTOP / SIGCONT: a member that accepts connections and never answers. */
  pause(): void;
  resume(): void;
  /** Kills it and removes its data. */
  cleanup(): Promise<void>;
}

export const ETCD_BIN = process.env['ETCD_BIN'] ?? 'etcd';
/** The progress-notify interval the README gives etcd (its own default is 10 minutes). */
export const WATCH_PROGRESS_INTERVAL = '5s';

let ensured = false;

/** Installs etcd with scripts/ensure-etcd.sh when it is missing (a test file run on its own). */
export function ensureEtcd(): void {
  if (ensured) return;
  if (spawnSync(ETCD_BIN, ['--version']).status !== 0) {
    runRepoScript('ensure-etcd.sh', 'these tests need a real etcd');
  }
  ensured = true;
}

async function answers(endpoint: string): Promise<boolean> {
  try {
    const response = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(1_000) });
    return response.ok && ((await response.json()) as { health?: string }).health === 'true';
  } catch {
    return false;
  }
}

interface MemberSpec {
  name: string;
  dataDir: string;
  endpoint: string;
  peer: string;
  /** name=peerURL for every member of the cluster. */
  initialCluster: string;
  /** The same for every member of one cluster, and unique to it. */
  token: string;
  extraArgs: string[];
}

interface Launchable extends EtcdMember {
  launch(): Promise<void>;
}

async function memberSpec(name: string, extraArgs: string[]): Promise<Omit<MemberSpec, 'initialCluster' | 'token'>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'drover-etcd-'));
  const [clientPort, peerPort] = [await freePort(), await freePort()];
  return { name, dataDir, endpoint: `http://127.0.0.1:${clientPort}`, peer: `http://127.0.0.1:${peerPort}`, extraArgs };
}

function member(spec: MemberSpec): Launchable {
  const { endpoint, peer, dataDir } = spec;
  const args = [
    '--name',
    spec.name,
    '--data-dir',
    join(dataDir, 'member'),
    '--listen-client-urls',
    endpoint,
    '--advertise-client-urls',
    endpoint,
    '--listen-peer-urls',
    peer,
    '--initial-advertise-peer-urls',
    peer,
    '--initial-cluster',
    spec.initialCluster,
    '--initial-cluster-token',
    spec.token,
    '--log-level',
    'warn',
    // As the README starts etcd: progress notifications let a watch of a quiet prefix move its
    // bookmarks on (etcd-watch.ts). Go's flags take the last value: extraArgs may set another.
    '--experimental-watch-progress-notify-interval',
    WATCH_PROGRESS_INTERVAL,
    ...spec.extraArgs,
  ];
  let child: ChildProcess | undefined;
  let output = '';
  const launch = async () => {
    // etcd refuses to start off amd64 unless told that is deliberate.
    const env = process.arch === 'x64' ? process.env : { ...process.env, ETCD_UNSUPPORTED_ARCH: process.arch };
    child = spawn(ETCD_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const started = child;
    // /health is true once the cluster has a leader: every member of a new cluster must be up.
    await waitFor(
      `etcd at ${endpoint} to answer`,
      async () => {
        if (await answers(endpoint)) return true;
        if (started.exitCode !== null || started.signalCode !== null) throw new StopWaiting(`etcd exited at start:\n${output}`);
        return undefined;
      },
      20_000,
    ).catch((error: Error) => {
      throw error instanceof StopWaiting ? error : new Error(`${error.message}:\n${output}`);
    });
  };
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGCONT');
    running.kill(signal);
    const timer = setTimeout(() => running.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return {
    endpoint,
    dataDir,
    launch,
    output: () => output,
    stop: () => stop(),
    restart: async () => {
      await stop();
      await launch();
    },
    pause: () => {
      child?.kill('SIGSTOP');
      // The signal is queued, not yet acted on: a request sent at once could still be answered.
      // Return once the kernel shows the process stopped (state T in /proc/<pid>/stat).
      const pid = child?.pid;
      const deadline = Date.now() + 2_000;
      while (pid !== undefined && Date.now() < deadline) {
        const state = /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
        if (state === 'T' || state === 't') break;
      }
    },
    resume: () => child?.kill('SIGCONT'),
    cleanup: async () => {
      // The data goes too, so nothing is gained by a graceful stop (which, for the last member of
      // a cluster without quorum, waits out a leader transfer).
      await stop('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** One member, a cluster of its own. */
export async function startEtcd(extraArgs: string[] = []): Promise<EtcdMember> {
  return (await startEtcdCluster(1, extraArgs))[0]!;
}

/** A new cluster of `size` members, all started (and healthy) before it resolves. */
export async function startEtcdCluster(size: number, extraArgs: string[] = []): Promise<EtcdMember[]> {
  ensureEtcd();
  const specs = await Promise.all(Array.from({ length: size }, (_, i) => memberSpec(`m${i}`, extraArgs)));
  const initialCluster = specs.map((spec) => `${spec.name}=${spec.peer}`).join(',');
  const token = `drover-test-${basename(specs[0]!.dataDir)}`;
  const members = specs.map((spec) => member({ ...spec, initialCluster, token }));
  try {
    await Promise.all(members.map((one) => one.launch()));
  } catch (error) {
    await Promise.all(members.map((one) => one.cleanup()));
    throw error;
  }
  return members;
}
