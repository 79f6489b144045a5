// A usage chart in plain SVG: one figure (CPU or memory) over the last hour, from the metrics
// history, with the request and the limit (or a node's allocatable) drawn as lines where they
// exist. The axis ticks fall on round numbers of the figure's own unit (m cores, Mi), and the
// whole chart has a text alternative saying what it shows, for screen readers and for tests.
import type { HistoryPoint, UsageHistory } from '../api/metrics';
import { formatBytes, formatCpu } from '../quantity';

const WIDTH = 560;
const HEIGHT = 170;
const PAD = { left: 56, right: 16, top: 10, bottom: 22 };
const HOUR_MS = 3_600_000;

export type Figure = 'cpu' | 'memory';

/**
 * How a value reads, and the unit ticks are counted in for a scale up to `top`: millicores for
 * CPU; for memory the largest binary unit (Ki, Mi, Gi…) that fits, so ticks fall on 10Gi, not 9.8Gi.
 */
const FIGURES: Record<Figure, { title: string; format: (value: number) => string; unit: (top: number) => number }> = {
  cpu: { title: 'CPU', format: (v) => (v === 0 ? '0' : v >= 1 ? `${formatCpu(v)} core${v === 1 ? '' : 's'}` : formatCpu(v)), unit: () => 0.001 },
  memory: { title: 'Memory', format: formatBytes, unit: (top) => 1024 ** Math.max(1, Math.floor(Math.log(Math.max(top, 1)) / Math.log(1024))) },
};

export interface Line {
  label: string;
  value: number;
}

interface Props {
  figure: Figure;
  points: readonly HistoryPoint[];
  stepSeconds: number;
  /** Request, limit, allocatable…: each a horizontal line with its label. */
  lines: readonly Line[];
  /** The right edge (ms); the left is an hour before. */
  now: number;
  /** Whose figure it is, for the text alternative ("pod default/web"). */
  subject: string;
}

/** A round step (1, 2 or 5 × 10^k units) giving at most about four ticks up to `max`. */
export function tickStep(max: number, unit: number): number {
  const inUnits = max / unit / 4;
  const power = 10 ** Math.floor(Math.log10(Math.max(inUnits, 1)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= inUnits) ?? 10 * power;
  return step * unit;
}

/** The points split where a sample is missing (more than two steps apart), so a gap shows as one. */
function segments(points: readonly HistoryPoint[], stepSeconds: number): HistoryPoint[][] {
  const out: HistoryPoint[][] = [];
  for (const point of points) {
    const current = out[out.length - 1];
    const previous = current?.[current.length - 1];
    if (current && previous && point.time - previous.time <= 2 * stepSeconds * 1000) current.push(point);
    else out.push([point]);
  }
  return out;
}

export function UsageChart({ figure, points, stepSeconds, lines, now, subject }: Props) {
  const { format, title } = FIGURES[figure];
  const shown = points.filter((p) => p.time >= now - HOUR_MS && p.time <= now + stepSeconds * 1000);
  const values = shown.map((p) => p[figure]);
  const top = Math.max(figure === 'cpu' ? 0.01 : 1024 * 1024, ...values, ...lines.map((l) => l.value)) * 1.1;
  const step = tickStep(top, FIGURES[figure].unit(top));
  const ceiling = Math.ceil(top / step) * step;
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (time: number) => PAD.left + ((time - (now - HOUR_MS)) / HOUR_MS) * plotWidth;
  const y = (value: number) => PAD.top + plotHeight - (value / ceiling) * plotHeight;
  const ticks = Array.from({ length: Math.round(ceiling / step) + 1 }, (_, i) => i * step);
  const latest = values[values.length - 1];
  const summary =
    shown.length === 0
      ? `${title} of ${subject} over the last hour: no samples yet.`
      : `${title} of ${subject} over the last hour, ${shown.length} samples every ${stepSeconds} s: now ${format(latest!)}, lowest ${format(Math.min(...values))}, highest ${format(Math.max(...values))}${lines.map((l) => `; ${l.label} ${format(l.value)}`).join('')}.`;
  return (
    <figure class="chart" data-figure={figure} data-points={shown.length}>
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width={WIDTH} height={HEIGHT} role="img" aria-label={summary}>
        <title>{summary}</title>
        {ticks.map((t) => (
          <g key={t} class="tick">
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(t)} y2={y(t)} class="grid-line" />
            <text x={PAD.left - 6} y={y(t) + 4} text-anchor="end">
              {format(t)}
            </text>
          </g>
        ))}
        {[60, 45, 30, 15, 0].map((minutes) => (
          <text key={minutes} x={x(now - minutes * 60_000)} y={HEIGHT - 6} text-anchor="middle">
            {minutes === 0 ? 'now' : `−${minutes} min`}
          </text>
        ))}
        {lines.map((l) => (
          <g key={l.label} class={`limit-line line-${l.label}`}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(l.value)} y2={y(l.value)} />
            <text x={WIDTH - PAD.right - 4} y={y(l.value) - 3} text-anchor="end">
              {l.label} {format(l.value)}
            </text>
          </g>
        ))}
        {segments(shown, stepSeconds).map((segment) =>
          segment.length === 1 ? (
            <circle key={segment[0]!.time} class="usage-dot" cx={x(segment[0]!.time)} cy={y(segment[0]![figure])} r={2.5} />
          ) : (
            <polyline key={segment[0]!.time} class="usage-line" points={segment.map((p) => `${x(p.time).toFixed(1)},${y(p[figure]).toFixed(1)}`).join(' ')} />
          ),
        )}
      </svg>
    </figure>
  );
}

interface PairProps {
  history: UsageHistory | undefined;
  cpuLines: readonly Line[];
  memoryLines: readonly Line[];
  subject: string;
}

/** CPU and memory side by side, or why there is nothing to draw yet. */
export function UsageCharts({ history, cpuLines, memoryLines, subject }: PairProps) {
  if (!history) return <p class="muted">No usage history (yet) for {subject}.</p>;
  const now = Date.now();
  return (
    <div class="charts" aria-label={`usage of ${subject} over the last hour`}>
      <UsageChart figure="cpu" points={history.points} stepSeconds={history.stepSeconds} lines={cpuLines} now={now} subject={subject} />
      <UsageChart figure="memory" points={history.points} stepSeconds={history.stepSeconds} lines={memoryLines} now={now} subject={subject} />
    </div>
  );
}

/** The lines worth drawing: those with a value (no request set draws no request line). */
export function linesOf(named: Record<string, number | undefined>): Line[] {
  return Object.entries(named)
    .filter((e): e is [string, number] => (e[1] ?? 0) > 0)
    .map(([label, value]) => ({ label, value }));
}
