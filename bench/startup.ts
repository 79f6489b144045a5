// `npm run bench:startup`: time from "start" to Running, side by side in one run: raw `docker run
// -d` (one container, the floor of a task), Docker Swarm (`docker service create`), the pod floor
// (a pod's two containers straight through the Engine API, see pod-floor.ts), and Drover
// (`kubectl apply` against `drover up`), with where Drover's time goes, stage by stage
// (startup-stages.ts). Prints figures, ratios and spreads; never fails on time. The runs, in order:
//   one    1 pod, BENCH_STARTUP_ROUNDS rounds (default 5; about 8 s a round here)
//   many   BENCH_STARTUP_PODS pods at once (default 50), BENCH_STARTUP_MANY_ROUNDS rounds
//          (default 3, not 5: a round takes a minute and a half here, Swarm's leave a good part)
//   churn  BENCH_STARTUP_CHURN_PODS pods (default 500) started and deleted in waves of
//          BENCH_STARTUP_CHURN_WAVE (default 50), each wave printed (startup-churn.ts; about
//          35 s a wave); BENCH_STARTUP_CHURN_SWARM=1 adds Swarm's own waves where the peers'
//          figures are not the many-pod run's
//   wide   BENCH_STARTUP_WIDE_PODS pods (default 200) on two agents (a second `drover agent`
//          joins for it), BENCH_STARTUP_WIDE_ROUNDS rounds (default 1: a round takes minutes)
// BENCH_STARTUP_RUNS=one,many,churn,wide picks runs (default all); BENCH_AGENT_ARGS passes flags
// to both agents (e.g. `--sandbox-pool-max 0`, to compare a pool on and off: every flag must be
// one both `drover up` and `drover agent` take); BENCH_STARTUP_PEER_CONCURRENCY (default 50)
// caps the containers a peer makes at once; BENCH_STARTUP_WAIT=poll lists pods instead of
// watching them. Each run prints how long it took. With the defaults the bench takes about 15-20
// minutes on this 2-core machine; BENCH_STARTUP_ROUNDS=2 BENCH_STARTUP_PODS=10
// BENCH_STARTUP_MANY_ROUNDS=2 BENCH_STARTUP_CHURN_PODS=100 BENCH_STARTUP_CHURN_WAVE=20
// BENCH_STARTUP_WIDE_PODS=20 runs every part in a few minutes.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeRangeRules } from '../src/agent/network/host-rules.js';
import { reserveTestNetwork } from '../test/support/test-network.js';
import { droverUp, median, medianWithRange, prepareDocker } from './peers.js';
import { AGENT_ARGS, startExtraAgent } from './startup-agents.js';
import { churn, churnLines, type ChurnFigures } from './startup-churn.js';
import { DroverPods } from './startup-drover.js';
import { podFloor, rawDocker, removeBenchContainers, swarm } from './startup-peers.js';
import { breakdownLines, type RoundMarks } from './startup-stages.js';

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ROUNDS = setting('BENCH_STARTUP_ROUNDS', 5);
const COUNT = setting('BENCH_STARTUP_PODS', 50);
const MANY_ROUNDS = setting('BENCH_STARTUP_MANY_ROUNDS', 3);
const CHURN_PODS = setting('BENCH_STARTUP_CHURN_PODS', 500);
const CHURN_WAVE = setting('BENCH_STARTUP_CHURN_WAVE', 50);
const CHURN_SWARM = process.env['BENCH_STARTUP_CHURN_SWARM'] === '1';
const WIDE_PODS = setting('BENCH_STARTUP_WIDE_PODS', 200);
const WIDE_ROUNDS = setting('BENCH_STARTUP_WIDE_ROUNDS', 1);
/** The bench's node, by a name of its own: other clusters on this Docker keep their containers. */
const NODE_NAME = `bench-startup-${randomUUID().slice(0, 8)}`;
const RUNS = new Set((process.env['BENCH_STARTUP_RUNS'] ?? 'one,many,churn,wide').split(',').map((s) => s.trim()));

const ONE_TARGETS = '<= 1.1x raw docker and <= raw + 50 ms';
const MANY_TARGETS = '<= 1.1x raw docker, <= 0.4x swarm';

interface Figures {
  raw: number[];
  swarm: number[];
  floor: number[];
  drover: number[];
  marks: RoundMarks[];
}

/** `count` containers or pods at once, `rounds` times, each peer in turn within a round. */
async function sideBySide(pods: DroverPods, count: number, rounds: number, tag: string): Promise<Figures> {
  const figures: Figures = { raw: [], swarm: [], floor: [], drover: [], marks: [] };
  for (let round = 0; round < rounds; round++) {
    figures.raw.push(await rawDocker(count));
    figures.swarm.push(await swarm(count));
    figures.floor.push(await podFloor(count));
    const started = await pods.start(count, `${tag}-${round}`);
    figures.drover.push(started.ms);
    figures.marks.push(started.marks);
    await pods.deleteAll();
  }
  return figures;
}

/** "1.23x [1.10–1.40]": the ratio of the medians, and the range of the rounds' own ratios. */
function ratio(values: number[], peer: number[]): string {
  const each = values.map((v, i) => v / peer[i]!);
  const range = each.length > 1 ? ` [${Math.min(...each).toFixed(2)}–${Math.max(...each).toFixed(2)}]` : '';
  return `${(median(values) / median(peer)).toFixed(2)}x${range}`;
}

function report(title: string, figures: Figures, targets: string): void {
  const { raw, swarm: sw, floor, drover } = figures;
  console.log(`\n${title}, median [min–max] of ${drover.length} round(s), ms:`);
  console.log(`  docker run -d           ${medianWithRange(raw).padStart(22)}`);
  console.log(`  docker swarm            ${medianWithRange(sw).padStart(22)}`);
  console.log(`  pod floor (Engine API)  ${medianWithRange(floor).padStart(22)}   = ${ratio(floor, raw)} raw docker, ${ratio(floor, sw)} swarm`);
  console.log(
    `  drover (kubectl apply)  ${medianWithRange(drover).padStart(22)}   = ${ratio(drover, raw)} raw docker, ${ratio(drover, sw)} swarm, ` +
      `${ratio(drover, floor)} the pod floor, raw + ${(median(drover) - median(raw)).toFixed(0)} ms`,
  );
  if (targets) console.log(`  targets (issue 21): ${targets}`);
  console.log(`  where Drover's time goes:`);
  for (const line of breakdownLines(figures.marks)) console.log(line);
}

function reportChurn(figures: ChurnFigures): void {
  console.log(`\nchurn: ${CHURN_PODS} pods started and deleted in waves of ${CHURN_WAVE}, one agent:`);
  for (const line of churnLines(figures, CHURN_WAVE)) console.log(line);
  console.log(`  where Drover's time goes, over every wave:`);
  for (const line of breakdownLines(figures.marks)) console.log(line);
}

/** Runs one part of the bench (which prints its figures), then prints how long it took: to choose the BENCH_STARTUP_* settings by. */
async function section(part: () => Promise<void>): Promise<void> {
  const started = performance.now();
  await part();
  console.log(`  (this run took ${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

async function runWide(dataDir: string, pods: DroverPods, networkFlags: string[]): Promise<void> {
  const second = await startExtraAgent(dataDir, `${NODE_NAME}-b`, networkFlags);
  pods.stageSources.add(second.stageRecords);
  pods.nodeNames.add(second.nodeName);
  try {
    report(`${WIDE_PODS} pods on two agents`, await sideBySide(pods, WIDE_PODS, WIDE_ROUNDS, 'wide'), '');
  } finally {
    pods.stageSources.delete(second.stageRecords);
    await pods.deleteAll().catch(() => undefined);
    await second.stop();
    pods.nodeNames.delete(second.nodeName);
  }
}

async function main(): Promise<void> {
  await prepareDocker();
  const dataDir = await mkdtemp(join(tmpdir(), 'drover-bench-up-'));
  // Address ranges of its own, as a test cluster's: the service rules and pod networks it
  // programs leave those of the clusters beside it (tests, other benches) alone.
  const network = reserveTestNetwork();
  const cluster = await droverUp(dataDir, ['--node-name', NODE_NAME, ...network.flags(), ...AGENT_ARGS]);
  const pods = await DroverPods.open(cluster.kubeconfig, NODE_NAME);
  if (AGENT_ARGS.length > 0) console.log(`agent flags (BENCH_AGENT_ARGS): ${AGENT_ARGS.join(' ')}`);
  try {
    if (RUNS.has('one')) await section(async () => report('1 pod', await sideBySide(pods, 1, ROUNDS, 'one'), ONE_TARGETS));
    let many: Figures | undefined;
    if (RUNS.has('many')) await section(async () => report(`${COUNT} pods`, (many = await sideBySide(pods, COUNT, MANY_ROUNDS, 'many')), MANY_TARGETS));
    // The peers start a wave as they start the many-pod run's pods, when the counts are the same: measured once.
    const peers = many && COUNT === CHURN_WAVE ? { ...many, source: `the ${COUNT}-pod run's` } : undefined;
    if (RUNS.has('churn') && CHURN_PODS > 0) await section(async () => reportChurn(await churn(pods, CHURN_PODS, CHURN_WAVE, peers, CHURN_SWARM)));
    if (RUNS.has('wide') && WIDE_PODS > 0) await section(() => runWide(dataDir, pods, network.flags()));
  } finally {
    pods.close();
    await cluster.stop();
    await removeBenchContainers();
    await rm(dataDir, { recursive: true, force: true });
    // The service rules its node programmed outlive it, as a stopped kubelet's do.
    await removeRangeRules(network.serviceCidr);
    network.release();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
