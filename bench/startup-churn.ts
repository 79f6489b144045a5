// The churn run of bench:startup: `total` pods started and deleted in waves of `wave`, one wave
// after another on the same agent, each wave's start (kubectl apply → all Running) and delete
// (kubectl delete --wait → the API has none) printed in order, so that what an agent carries from
// one wave to the next (a pool of sandboxes refilled between waves, say: BENCH_AGENT_ARGS) shows
// over time. The peers have no such memory: one wave of theirs is the next one's like, so their
// figures for a wave are those of the many-pod run when it started as many containers in this
// same bench, else a few waves of raw `docker run` and the pod floor made here (Docker Swarm's
// too with BENCH_STARTUP_CHURN_SWARM=1, about half a minute a wave).
import { docker, inSwarm, median, medianWithRange, runningTaskImages, sleep, timed, untilNoContainers } from './peers.js';
import type { DroverPods } from './startup-drover.js';
import { IMAGE } from './startup-drover.js';
import { podFloor, rawDocker } from './startup-peers.js';
import type { RoundMarks } from './startup-stages.js';

/** Waves of each peer measured when no figures are handed in. */
const PEER_WAVES = 3;

/** Milliseconds to start one wave's containers, a figure per round or wave. */
export interface PeerWaves {
  raw: number[];
  floor: number[];
  swarm: number[];
  /** Where they come from, as printed. */
  source: string;
}

export interface ChurnFigures {
  drover: Array<{ start: number; delete: number }>;
  peers: PeerWaves;
  marks: RoundMarks[];
}

async function swarmWaves(waves: number, wave: number): Promise<number[]> {
  return inSwarm(async () => {
    const figures: number[] = [];
    for (let i = 0; i < waves; i++) {
      figures.push(
        await timed(async () => {
          await docker('service', 'create', '--detach', '--no-resolve-image', '--name', 'drover-churn', '--replicas', String(wave), IMAGE, 'sleep', '3600');
          while ((await runningTaskImages('drover-churn')).length < wave) await sleep(20);
        }),
      );
      await docker('service', 'rm', 'drover-churn');
      await untilNoContainers('label=com.docker.swarm.service.name=drover-churn');
    }
    return figures;
  });
}

async function measurePeers(wave: number, withSwarm: boolean): Promise<PeerWaves> {
  const peers: PeerWaves = { raw: [], floor: [], swarm: [], source: `${PEER_WAVES} waves each, made here` };
  for (let i = 0; i < PEER_WAVES; i++) peers.raw.push(await rawDocker(wave));
  for (let i = 0; i < PEER_WAVES; i++) peers.floor.push(await podFloor(wave));
  if (withSwarm) peers.swarm = await swarmWaves(PEER_WAVES, wave);
  return peers;
}

/** `peers`: figures for as many containers measured earlier in this bench, or undefined to measure them here. */
export async function churn(pods: DroverPods, total: number, wave: number, peers: PeerWaves | undefined, withSwarm: boolean): Promise<ChurnFigures> {
  const waves = Math.max(1, Math.ceil(total / wave));
  const figures: ChurnFigures = { drover: [], peers: peers ?? (await measurePeers(wave, withSwarm)), marks: [] };
  for (let i = 0; i < waves; i++) {
    const started = await pods.start(wave, `churn-${i}`);
    figures.drover.push({ start: started.ms, delete: await pods.deleteAll() });
    figures.marks.push(started.marks);
  }
  return figures;
}

export function churnLines(figures: ChurnFigures, wave: number): string[] {
  const { peers } = figures;
  const peerList = [
    { name: 'raw docker', short: 'raw', values: peers.raw },
    { name: 'pod floor', short: 'floor', values: peers.floor },
    { name: 'swarm', short: 'swarm', values: peers.swarm },
  ].filter((peer) => peer.values.length > 0);
  const ratios = (ms: number) => peerList.map((peer) => (ms / median(peer.values)).toFixed(2).padStart(8)).join('');
  const f = (ms: number) => ms.toFixed(0);
  const lines = [
    `  peers, a wave of ${wave} (median [min–max] ms, ${peers.source}): ${peerList.map((peer) => `${peer.name} ${medianWithRange(peer.values)}`).join(', ')}`,
    `  wave  drover start (ms)  ${peerList.map((peer) => `x ${peer.short}`.padStart(8)).join('')}  drover delete (ms)`,
  ];
  figures.drover.forEach((d, i) => lines.push(`  ${String(i + 1).padStart(4)}  ${f(d.start).padStart(17)}  ${ratios(d.start)}  ${f(d.delete).padStart(18)}`));
  const starts = figures.drover.map((d) => d.start);
  const middle = median(starts);
  lines.push(`  median wave start ${f(middle)} ms = ${peerList.map((peer) => `${(middle / median(peer.values)).toFixed(2)}x ${peer.name}`).join(', ')}`);
  if (starts.length >= 2) {
    const half = Math.floor(starts.length / 2);
    lines.push(`  first half of the waves: median ${f(median(starts.slice(0, half)))} ms; second half: median ${f(median(starts.slice(half)))} ms`);
  }
  return lines;
}
