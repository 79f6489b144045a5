// The README, typed as written: a fresh clone of this checkout, and every command of every
// ```sh block run in order from the clone's root with the README's own relative paths, each
// checked against what the README says it shows (support/readme-steps.ts). Commands a person
// stops (Ctrl-C) or leaves (exit) are marked so in the README and run unattended here.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { removeNodeObjects } from './support/agent/agent-cluster.js';
import { freshClone, type FreshClone } from './support/fresh-clone.js';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { readmeCommands, type ReadmeCommand } from './support/readme.js';
import { STEPS, type Step, type StepContext } from './support/readme-steps.js';
import { ShellSession, type BackgroundCommand } from './support/shell-session.js';
import { waitFor } from './support/wait-for.js';

const CHECKOUT = resolve(import.meta.dirname, '../..');
const README = join(CHECKOUT, 'README.md');
/** The README's cluster answers on the default port; no other test uses it. */
const README_PORT = 6443;
const NODE_NAME = hostname().toLowerCase();

const RUNS_UNTIL_CTRL_C = /\(until Ctrl-C\)/;
const RUNS_UNTIL_EXIT = /\(until exit\)/;
/** Commands that do not end by themselves: the README must mark them. */
const LOOKS_INTERACTIVE = /\s-(it|ti)\b|\blogs\b.*\s-f\b|--follow\b|\bport-forward\b|\bdrover (up|server|agent|scheduler|controller-manager)\b/;
/** Flags with which those commands print something and exit. */
const EXITS_AT_ONCE = /\s--(print-prometheus-config|help|cleanup)\b/;

/** Why a README command cannot be run as this test runs it, or undefined when it can. */
function planProblem({ command, comment }: ReadmeCommand): string | undefined {
  const step: Step | undefined = STEPS[command];
  if (RUNS_UNTIL_CTRL_C.test(comment) && !step?.untilCtrlC) return 'runs until Ctrl-C: give it an untilCtrlC step';
  if (RUNS_UNTIL_EXIT.test(comment) && step?.input === undefined) return 'runs until exit: give it the input that exits';
  if (LOOKS_INTERACTIVE.test(command) && !EXITS_AT_ONCE.test(command) && !RUNS_UNTIL_CTRL_C.test(comment) && !RUNS_UNTIL_EXIT.test(comment))
    return 'does not end by itself: mark it "(until Ctrl-C)" or "(until exit)" in the README';
  // A Ctrl-C step checks what it shows while it runs; an `instead` step says why it cannot.
  if (comment && !step?.shows && !step?.untilCtrlC && !step?.instead) return `the README says it shows "${comment}": check that in a step`;
  return undefined;
}

/** The environment of a person's terminal: none of what `npm test` around this test set. */
function terminalEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith('npm_') || ['NODE_TEST_CONTEXT', 'KUBECONFIG', 'INIT_CWD'].includes(key)) continue;
    env[key] = value;
  }
  env['PATH'] = (env['PATH'] ?? '')
    .split(':')
    .filter((dir) => !dir.includes('node_modules/.bin'))
    .join(':');
  // No registry can be reached here; what the clone needs is already in its node_modules.
  env['npm_config_offline'] = 'true';
  return env;
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), done(true)));
    socket.once('error', () => done(false));
  });
}

/** One attempt, or, for a step that may need the cluster to settle first, attempts until one passes. */
async function retrying(what: string, retryMs: number, attempt: () => Promise<void>): Promise<void> {
  if (retryMs === 0) return attempt();
  await waitFor(what, async () => (await attempt(), true), retryMs);
}

/**
 * Runs one README command (or its step's stand-in) and checks what it shows. Returns it if it
 * keeps running beside the later commands.
 */
async function typeCommand(session: ShellSession, ctx: StepContext, readme: ReadmeCommand): Promise<BackgroundCommand | undefined> {
  const step: Step = STEPS[readme.command] ?? {};
  const command = step.instead?.command ?? readme.command;
  try {
    if (step.untilCtrlC) {
      const running = session.start(command);
      await running.waitFor(step.untilCtrlC.ready, step.timeoutMs ?? 30_000);
      await step.untilCtrlC.whileRunning?.(ctx);
      if (step.untilCtrlC.keepRunning) {
        await step.shows?.(running.output(), ctx);
        return running;
      }
      await step.shows?.((await running.interrupt()).output, ctx);
      return undefined;
    }
    await retrying(`\`${command}\` to pass`, step.retryMs ?? 0, async () => {
      const result = await session.run(command, { ...(step.input !== undefined ? { input: step.input } : {}), timeoutMs: step.timeoutMs ?? 60_000 });
      assert.equal(result.code, 0, `exit code; it printed:\n${result.output}`);
      await step.shows?.(result.output, ctx);
    });
    return undefined;
  } catch (error) {
    const instead = step.instead ? `\n(run as \`${step.instead.command}\`: ${step.instead.why})` : '';
    throw new Error(
      `README line ${readme.line} (${readme.section || 'top'}): ${readme.command}${instead}\n${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

describe('the README, typed into a fresh clone', () => {
  const commands = readmeCommands(README);
  const problems = commands.flatMap((c) => {
    const problem = planProblem(c);
    return problem ? [`README line ${c.line}: ${c.command}: ${problem}`] : [];
  });
  let clone: FreshClone | undefined;
  let session: ShellSession | undefined;
  let ctx: StepContext;
  const kubeconfig = () => join(clone!.root, '.drover', 'kubeconfig');
  /** Whatever pods the README's commands left, gone while the cluster runs, so their containers stop. */
  const deleteWorkloads = () =>
    kubectlRaw(kubeconfig(), ['delete', 'deployments,pods', '--all', '--grace-period=1', '--wait=true', '--timeout=40s'], { timeoutMs: 60_000 });

  before(async () => {
    requireKubectl();
    assert.equal(await portAnswers(README_PORT), false, `port ${README_PORT} is taken: the README's cluster needs it (is a drover up running?)`);
    clone = await freshClone(CHECKOUT);
    session = new ShellSession(clone.root, terminalEnvironment());
    ctx = { root: clone.root, nodeName: NODE_NAME, readme: readFileSync(README, 'utf8'), kubectl: (...args) => kubectl(kubeconfig(), args) };
  });

  after(async () => {
    if (!clone) return; // Nothing started: the node's containers, if any, are someone else's.
    // Pods first, then the cluster (Ctrl-C), then any container a failure left behind.
    if (await portAnswers(README_PORT)) await deleteWorkloads();
    await session?.close();
    await removeNodeObjects(NODE_NAME);
    await clone?.remove();
  });

  it('knows how to run every command and what each should show', () => {
    assert.ok(commands.length > 10, 'the README has its shell examples');
    assert.deepEqual(problems, []);
    const typed = new Set(commands.map((c) => c.command));
    assert.deepEqual(
      Object.keys(STEPS).filter((command) => !typed.has(command)),
      [],
      'steps for commands the README no longer has',
    );
  });

  // Each command has a limit of its own (a hang names its README line); this one only bounds
  // their sum, which is about 170 s on a quiet 2-core machine and went past 240 s on a busy one.
  it('runs every command, from nothing to a running pod and a Deployment rolled forward and back', { timeout: 600_000 }, async () => {
    // An unmarked command that never ends would only hang here: the test above says which.
    assert.deepEqual(problems, [], 'the README cannot be run unattended as it is');
    const stopAtTheEnd: BackgroundCommand[] = [];
    const took: Array<[number, string]> = [];
    for (const readme of commands) {
      const started = Date.now();
      const running = await typeCommand(session!, ctx, readme);
      took.push([Date.now() - started, `line ${readme.line}: ${readme.command}`]);
      if (running) stopAtTheEnd.push(running);
    }
    const slowest = took.sort((a, b) => b[0] - a[0]).slice(0, 5);
    console.log(
      `README commands: ${took.reduce((sum, [ms]) => sum + ms, 0)} ms in all; slowest: ${slowest.map(([ms, what]) => `${ms} ms ${what}`).join('; ')}`,
    );
    // The cluster comes down with Ctrl-C, as the README says; the Deployment's pods (their
    // `sleep` ignores SIGTERM) are hurried out of its 30 s grace period first.
    await deleteWorkloads();
    for (const running of stopAtTheEnd) {
      const { output } = await running.interrupt();
      assert.match(output, /received SIGINT, shutting down/);
    }
  });
});
