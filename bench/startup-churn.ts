// The churn run of bench:startup: `total` pods started and deleted in waves of `wave`, one wave
// after another on the same agent, each wave's start (kubectl apply → all Running) and delete
// (kubectl delete --wait → the API has none) printed in order, so that what an agent carries from
// one wave to the next (a pool of sandboxes refilled between waves, say: BENCH_AGENT_ARGS) shows
// over time. Raw `docker run` and the pod floor make the same waves beside it; Docker Swarm only
// with BENCH_STARTUP_CHURN_SWARM=1 (a service per wave, about half a minute each here).
import { docker, inSwarm, median, runningTaskImages, sleep, timed, untilNoContainers } from './peers.js';
import type { DroverPods } from './startup-drover.js';
import { IMAGE } from './startup-drover.js';
import { podFloor, rawDocker } from './startup-peers.js';
import type { RoundMarks } from './startup-stages.js';

export interface ChurnFigures {
  drover: Array<{ start: number; delete: number }>;
  raw: number[];
  floor: number[];
  swarm: number[];
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

export async function churn(pods: DroverPods, total: number, wave: number, withSwarm: boolean): Promise<ChurnFigures> {
  const waves = Math.max(1, Math.ceil(total / wave));
  const figures: ChurnFigures = { drover: [], raw: [], floor: [], swarm: [], marks: [] };
  for (let i = 0; i < waves; i++) figures.raw.push(await rawDocker(wave));
  for (let i = 0; i < waves; i++) figures.floor.push(await podFloor(wave));
  if (withSwarm) figures.swarm = await swarmWaves(waves, wave);
  for (let i = 0; i < waves; i++) {
    const started = await pods.start(wave, `churn-${i}`);
    figures.drover.push({ start: started.ms, delete: await pods.deleteAll() });
    figures.marks.push(started.marks);
  }
  return figures;
}

export function churnLines(figures: ChurnFigures, wave: number): string[] {
  const raw = median(figures.raw);
  const floor = median(figures.floor);
  const swarm = figures.swarm.length > 0 ? median(figures.swarm) : undefined;
  const f = (ms: number | undefined) => (ms === undefined ? '' : ms.toFixed(0));
  const lines = [
    `  wave  drover start (ms)  = x raw  = x floor${swarm === undefined ? '' : '  = x swarm'}  drover delete (ms)   raw docker  pod floor${swarm === undefined ? '' : '  swarm'}`,
  ];
  figures.drover.forEach((d, i) => {
    const ratios = `${(d.start / raw).toFixed(2).padStart(7)}  ${(d.start / floor).toFixed(2).padStart(9)}${swarm === undefined ? '' : (d.start / swarm).toFixed(2).padStart(11)}`;
    const peers = `${f(figures.raw[i]).padStart(11)}  ${f(figures.floor[i]).padStart(9)}${swarm === undefined ? '' : f(figures.swarm[i]).padStart(7)}`;
    lines.push(`  ${String(i + 1).padStart(4)}  ${f(d.start).padStart(17)}  ${ratios}  ${f(d.delete).padStart(18)}  ${peers}`);
  });
  const starts = figures.drover.map((d) => d.start);
  const half = Math.floor(starts.length / 2);
  lines.push(
    `  median wave start: drover ${f(median(starts))} ms (${(median(starts) / raw).toFixed(2)}x raw, ${(median(starts) / floor).toFixed(2)}x floor` +
      `${swarm === undefined ? '' : `, ${(median(starts) / swarm).toFixed(2)}x swarm`}), raw ${f(raw)} ms, floor ${f(floor)} ms` +
      `${swarm === undefined ? '' : `, swarm ${f(swarm)} ms`}; ${wave} pods a wave`,
  );
  if (starts.length >= 2) {
    lines.push(`  first half of the waves: median ${f(median(starts.slice(0, half || 1)))} ms; second half: median ${f(median(starts.slice(half)))} ms`);
  }
  return lines;
}
