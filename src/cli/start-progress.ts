// How far along `drover up` / `drover server` are while they start: "[i/N] what… 1.2 s" rewritten
// in place on a terminal, and a line per finished step in a pipe or a log (as the install scripts
// do, scripts/lib/progress.sh). A step that fails says what to do where the cause is a common one.
import { START_PHASE_LABELS, type StartPhase } from '../cluster/start-phases.js';

export interface StartProgress {
  onPhase(phase: StartPhase): void;
  /** The start finished: the last step ended. */
  done(): void;
  /** The start failed in the current step: says so, with what to do when the cause is known. */
  failed(error: unknown): void;
}

/** A step still running after this long gets its hint printed once (e.g. the node waiting for Docker). */
const SLOW_STEP_MS = 15_000;

const SLOW_HINTS: Partial<Record<StartPhase, string>> = {
  node: 'the node waits for Docker Engine (see the lines above); `bash scripts/ensure-docker.sh` installs and starts it',
  store: 'another process may hold the store: a second drover on the same --data-dir, or an etcd that does not answer',
};

export function startProgress(command: string, phases: StartPhase[], stream: NodeJS.WriteStream = process.stderr): StartProgress {
  const live = stream.isTTY === true && process.env['TERM'] !== 'dumb';
  let index = -1;
  let phaseStarted = performance.now();
  let hinted = false;
  let ticker: NodeJS.Timeout | undefined;
  const label = () => `${command}: [${index + 1}/${phases.length}] ${START_PHASE_LABELS[phases[index]!]}`;
  const seconds = () => ((performance.now() - phaseStarted) / 1000).toFixed(1);
  const clearLine = () => live && stream.write('\r\x1b[K');
  const draw = () => {
    if (index < 0) return;
    if (!hinted && performance.now() - phaseStarted > SLOW_STEP_MS && SLOW_HINTS[phases[index]!]) {
      hinted = true;
      clearLine();
      stream.write(`${command}: still ${START_PHASE_LABELS[phases[index]!]}: ${SLOW_HINTS[phases[index]!]}\n`);
    }
    if (live) stream.write(`\r\x1b[K${label()}… ${seconds()} s`);
  };
  const finish = () => {
    if (index < 0) return;
    clearLine();
    stream.write(`${label()}: done in ${seconds()} s\n`);
  };
  // Log lines written meanwhile (the start's components log on stdout, the control-plane
  // thread's through this thread) clear the live line first, so they do not run on after it;
  // the next tick draws it again below them.
  const stdout = process.stdout;
  const write = stdout.write;
  if (live) {
    stdout.write = function (this: NodeJS.WriteStream, ...args: Parameters<typeof write>) {
      clearLine();
      return write.apply(this, args);
    } as typeof write;
  }
  const stopTicker = () => {
    if (ticker) clearInterval(ticker);
    ticker = undefined;
    if (live) stdout.write = write;
  };
  return {
    onPhase(phase) {
      finish();
      // A phase outside the list still shows, counted at the end.
      if (!phases.includes(phase)) phases.push(phase);
      index = phases.indexOf(phase);
      phaseStarted = performance.now();
      hinted = false;
      // The log lines the start writes meanwhile break the live line; it is drawn again each tick.
      ticker ??= setInterval(draw, live ? 100 : 1_000).unref();
      draw();
    },
    done() {
      stopTicker();
      finish();
      index = -1;
    },
    failed(error) {
      stopTicker();
      clearLine();
      const where = index < 0 ? command : label();
      stream.write(`${where}: FAILED after ${seconds()} s: ${error instanceof Error ? error.message : String(error)}\n`);
      const hint = hintFor(error);
      if (hint) stream.write(`${command}: what to do: ${hint}\n`);
      if (typeof error === 'object' && error !== null) reported.add(error);
    },
  };
}

const reported = new WeakSet<object>();

/** Whether a start's progress has already told this failure (the command's last words need not repeat it). */
export function alreadyReported(error: unknown): boolean {
  return typeof error === 'object' && error !== null && reported.has(error);
}

/** What to do about the failures a user can mend themselves. */
export function hintFor(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'EADDRINUSE') return 'the port is in use: stop what listens there, or pick another with --port';
  if (code === 'EACCES' || code === 'EPERM') return 'no permission there: pick a --data-dir you own, or run as a user that may write it (and bind the port)';
  if (/database is locked|SQLITE_BUSY/i.test(message)) return 'another drover process uses this --data-dir: stop it, or pick another --data-dir';
  if (/etcd/i.test(message)) return 'check that etcd runs and answers at --etcd-endpoints (`etcdctl endpoint health`)';
  if (/docker/i.test(message)) return 'Docker Engine must answer: `bash scripts/ensure-docker.sh` installs and starts it';
  return undefined;
}
