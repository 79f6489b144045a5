// A Docker daemon of a test's own, beside the machine's: a test may stop and restart it (all its
// containers die with it, as with a real daemon restart) while other tests go on using the
// machine's daemon. It has its own data and exec roots, socket, containerd namespace and
// bridge (with its own subnet, so its pod IPs never clash with the main daemon's), and no
// iptables rules: nothing reaches its containers but through the daemon's API.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { StopWaiting, waitFor } from './wait-for.js';

export interface ScratchDockerd {
  /** The daemon's API socket, for DOCKER_HOST or an agent's dockerSocket. */
  readonly socket: string;
  /** Stops the daemon as a host shutdown does: SIGTERM, its containers stopped, then it exits. */
  stop(): Promise<void>;
  /** Starts it again on the same state: the containers it had are there, exited. */
  start(): Promise<void>;
  /** Stops it for good and removes its state and bridge. */
  destroy(): Promise<void>;
}

function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: 'ignore' });
}

/**
 * Starts a daemon in `dir` with the bridge `bridge` (at most 15 characters) on `subnet`
 * (a /24 given as its first three octets, e.g. '10.231.7'), and loads `images` into it
 * from the machine's daemon.
 */
export async function startScratchDockerd(dir: string, bridge: string, subnet: string, images: readonly string[]): Promise<ScratchDockerd> {
  await mkdir(dir, { recursive: true });
  const socket = join(dir, 'docker.sock');
  const env = { ...process.env, DOCKER_HOST: `unix://${socket}` };
  try {
    ip('link', 'delete', bridge);
  } catch {
    // Not left over from an earlier run: nothing to clear.
  }
  ip('link', 'add', bridge, 'type', 'bridge');
  ip('addr', 'add', `${subnet}.1/24`, 'dev', bridge);
  ip('link', 'set', bridge, 'up');

  const args = [
    '--data-root',
    join(dir, 'root'),
    '--exec-root',
    join(dir, 'exec'),
    '--pidfile',
    join(dir, 'docker.pid'),
    '--host',
    `unix://${socket}`,
    '--bridge',
    bridge,
    '--iptables=false',
    '--ip6tables=false',
    '--containerd-namespace',
    bridge,
    '--containerd-plugins-namespace',
    `${bridge}-plugins`,
  ];
  let daemon: ChildProcess | undefined;

  const answers = () => {
    try {
      execFileSync('docker', ['version', '--format', '{{.Server.Version}}'], { env, stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };

  const start = async () => {
    const log = createWriteStream(join(dir, 'dockerd.log'), { flags: 'a' });
    const child = spawn('dockerd', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.pipe(log);
    child.stderr!.pipe(log);
    daemon = child;
    await waitFor(
      `the scratch dockerd to answer (see ${join(dir, 'dockerd.log')})`,
      () => {
        if (answers()) return true;
        if (child.exitCode !== null) throw new StopWaiting(`scratch dockerd exited with ${child.exitCode}; see ${join(dir, 'dockerd.log')}`);
        return undefined;
      },
      60_000,
    );
  };

  const stop = async () => {
    const child = daemon;
    daemon = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };

  await start();
  try {
    execFileSync('sh', ['-c', `docker save ${images.join(' ')} | DOCKER_HOST=unix://${socket} docker load`], { stdio: 'ignore' });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    socket,
    stop,
    start,
    async destroy() {
      if (daemon && answers()) {
        const ids = execFileSync('docker', ['ps', '-aq'], { env, encoding: 'utf8' }).split('\n').filter(Boolean);
        if (ids.length > 0) execFileSync('docker', ['rm', '-f', ...ids], { env, stdio: 'ignore' });
        // The pod network an agent made on it: its bridge lives on the machine, not in `dir`.
        const networks = execFileSync('docker', ['network', 'ls', '-q', '--filter', 'label=drover.dev/pod-cidr'], { env, encoding: 'utf8' })
          .split('\n')
          .filter(Boolean);
        if (networks.length > 0) execFileSync('docker', ['network', 'rm', ...networks], { env, stdio: 'ignore' });
      }
      await stop();
      try {
        ip('link', 'delete', bridge);
      } catch {
        // Already gone.
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
