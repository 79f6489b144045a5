// A container joined to another's network gets a UTS namespace of its own from Docker, named
// at its start after the sandbox's *configured* hostname; Docker refuses a Hostname with a
// container network mode and has no UTS mode to share. A pooled sandbox was configured before
// its pod existed, so its containers would start under the pool's name. The shim closes that
// gap: the container's first process is the host's static busybox (bind-mounted read-only)
// running a few lines of sh that wait until the UTS hostname is the pod's, then exec the image's
// real command as Docker would have run it. The agent sets the hostname from the host right
// after the start (nsenter into the container's UTS namespace, as root).
//
// The shim waits by reading /proc/sys/kernel/hostname (a builtin `read`, no fork) every
// millisecond rather than on a FIFO: nothing to create, mount or clean per container, and a
// container whose agent died between start and hostname finds its way alone once the restarted
// agent sets the name (adoptWaitingShims), where a FIFO would need its writer back.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type Docker from 'dockerode';
import type { DockerContext } from './client.js';
import { engineMessage, genericError, statusOf } from './engine-errors.js';
import { HOSTNAME_SHIM, KIND, MANAGED } from '../labels.js';
import { CreateFailedError, ImageNotFoundError, StartFailedError } from '../errors.js';
import { labelFilters } from './state.js';
import type { ListFilter } from '../runtime.js';

const run = promisify(execFile);

/** Where the host's busybox is mounted in a shimmed container. */
export const SHIM_BUSYBOX = '/.drover/busybox';
/** argv[0] of the shim's sh, which names it in `ps` until it execs. */
const SHIM_NAME = 'drover-hostname-shim';

/**
 * Waits for the hostname, then execs "$@". busybox's sh runs its own applets for bare command
 * names (`sleep`, `sh`, `ls`) before the PATH: the command is looked up in the container's PATH
 * here, and exec'd by path under its own argv[0], as runc does.
 */
export function shimScript(hostname: string): string {
  // The API admits only DNS labels here; anything else would be shell text, so it is refused.
  if (!/^[a-z0-9][-a-z0-9.]*$/i.test(hostname)) throw new Error(`not a hostname the shim can wait for: ${JSON.stringify(hostname)}`);
  return [
    // As PID 1 the shell ignores a TERM it has no trap for: a container stopped while it waits would take its whole grace period.
    'trap "exit 143" TERM INT',
    `until read -r h </proc/sys/kernel/hostname && [ "$h" = '${hostname}' ]; do usleep 1000; done`,
    'c=$1',
    'case $c in',
    '*/*) p=$c ;;',
    '*) p=; IFS=:; for d in $PATH; do if [ -n "$d" ] && [ -f "$d/$c" ] && [ -x "$d/$c" ]; then p=$d/$c; break; fi; done; unset IFS',
    '  [ -n "$p" ] || { echo "exec: \\"$c\\": executable file not found in \\$PATH" >&2; exit 127; } ;;',
    'esac',
    'shift',
    'exec -a "$c" "$p" "$@"',
  ].join('\n');
}

/**
 * The command Docker would run: its create-time merge of the image's Entrypoint and Cmd with the
 * container's (daemon's merge rule: a given Entrypoint drops the image's Cmd; a given Cmd
 * replaces the image's).
 */
type Command = string[] | string | null | undefined;

export function dockerArgv(image: { Entrypoint?: Command; Cmd?: Command }, entrypoint?: Command, cmd?: Command): string[] {
  const given = (value: Command) => (typeof value === 'string' ? [value] : (value ?? []));
  const userEntrypoint = given(entrypoint);
  const userCmd = given(cmd);
  if (userEntrypoint.length > 0) return [...userEntrypoint, ...userCmd];
  return [...given(image.Entrypoint), ...(userCmd.length > 0 ? userCmd : given(image.Cmd))];
}

/** The create body with the shim in front of the command Docker would have run. */
export async function withHostnameShim(ctx: DockerContext, options: Docker.ContainerCreateOptions, hostname: string): Promise<Docker.ContainerCreateOptions> {
  const image = options.Image ?? '';
  let config: { Entrypoint?: Command; Cmd?: Command } = {};
  try {
    // A pod's command replaces all of the image's: its config is read only when it counts.
    if (dockerArgv({}, options.Entrypoint).length === 0) config = (await ctx.docker.getImage(image).inspect()).Config;
  } catch (err) {
    if (statusOf(err) !== 404) throw genericError(err, `create container: inspect image ${image}`);
    throw new ImageNotFoundError(image, `create container: image ${image}: ${engineMessage(err)}`, { engineMessage: engineMessage(err), cause: err });
  }
  const argv = dockerArgv(config, options.Entrypoint, options.Cmd);
  // Docker's own refusal, which the shim would otherwise turn into an exit.
  if (argv.length === 0) throw new CreateFailedError('create container: no command specified', { engineMessage: 'No command specified' });
  const host = options.HostConfig ?? {};
  return {
    ...options,
    Entrypoint: [SHIM_BUSYBOX, 'sh', '-c', shimScript(hostname), SHIM_NAME],
    Cmd: argv,
    Labels: { ...(options.Labels ?? {}), [HOSTNAME_SHIM]: hostname },
    HostConfig: { ...host, Mounts: [...(host.Mounts ?? []), { Type: 'bind', Source: ctx.busyboxPath, Target: SHIM_BUSYBOX, ReadOnly: true }] },
  };
}

/** Sets the hostname of the process's UTS namespace from the host. */
async function setHostname(ctx: DockerContext, pid: number, hostname: string): Promise<void> {
  await run('nsenter', ['-t', String(pid), '-u', ctx.busyboxPath, 'hostname', hostname], { timeout: 10_000 });
}

/** Gives a shimmed container that was just started its hostname, which lets the shim go on. */
export async function releaseShim(ctx: DockerContext, id: string, hostname: string): Promise<void> {
  let pid = 0;
  try {
    const info = await ctx.docker.getContainer(id).inspect();
    // Stopped already (killed meanwhile): nothing waits.
    if (!info.State.Running) return;
    pid = info.State.Pid;
    await setHostname(ctx, pid, hostname);
  } catch (err) {
    // It would wait for good: it goes, and the pod's sync sees a failed start.
    await ctx.docker
      .getContainer(id)
      .kill()
      .catch(() => undefined);
    const message = `set the pod's hostname in container ${id} (pid ${pid}): ${(err as Error).message}`;
    throw new StartFailedError(`start container ${id}: ${message}`, { engineMessage: message, cause: err });
  }
}

/**
 * Why this process cannot set a container's hostname, or undefined when it can: nsenter must be
 * there and allowed to enter a namespace (root), and the engine's container pids must be this
 * process's too (dockerd in the host's pid namespace) — `pid` is a running container's.
 */
export async function hostnameShimUnsupported(ctx: DockerContext, pid: number = process.pid): Promise<string | undefined> {
  try {
    await run('nsenter', ['-t', String(pid), '-u', ctx.busyboxPath, 'hostname'], { timeout: 10_000 });
    return undefined;
  } catch (err) {
    return `nsenter cannot enter the UTS namespace of process ${pid} here: ${(err as Error).message.trim()}`;
  }
}

/** Whether the process is still the shim's sh, waiting (its command line names the shim). */
async function stillWaiting(pid: number): Promise<boolean> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').includes(SHIM_NAME);
  } catch {
    return false;
  }
}

/**
 * Shimmed containers still waiting for their hostname (their agent died between start and
 * hostname) get it now. Called when the runtime's pool is first used after the agent starts.
 */
export async function adoptWaitingShims(ctx: DockerContext, filter: ListFilter): Promise<void> {
  const shimmed = { ...filter, labels: { ...(filter.labels ?? {}), [HOSTNAME_SHIM]: true as const } };
  const running = await ctx.docker.listContainers({ filters: labelFilters(shimmed, { [MANAGED]: 'true', [KIND]: 'container' }) });
  for (const c of running) {
    const hostname = c.Labels?.[HOSTNAME_SHIM];
    if (!hostname) continue;
    const info = await ctx.docker
      .getContainer(c.Id)
      .inspect()
      .catch(() => undefined);
    if (!info?.State.Running || !(await stillWaiting(info.State.Pid))) continue;
    await setHostname(ctx, info.State.Pid, hostname).catch(() => undefined);
  }
}
