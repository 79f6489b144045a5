// TLS beside the plain-HTTP peer over several rounds (BENCH_ROUNDS): the median ratio of each
// phase and its spread. On a small shared machine the load of other work moves from one minute
// to the next, and one round's ratio swings with it (create at max rate from 0.3× to 1.2× across
// single rounds on two cores): alternating the two servers and taking medians is what a figure
// can be read from.

/** One phase's throughput, p99 latency and the server's CPU per operation. */
export interface PhaseFigure {
  rate: number;
  p99: number;
  serverCpuUs: number;
}

interface Ratios {
  throughput: number;
  p99: number;
  /** The server's CPU per operation: unlike throughput, barely moved by other work on the machine. */
  cpu: number;
}

export type PhaseFigures = Map<string, PhaseFigure>;

/** Per phase: TLS's throughput and p99 as multiples of the peer's, for one round. */
export function ratiosOf(tls: PhaseFigures, plain: PhaseFigures): Map<string, Ratios> {
  const ratios = new Map<string, Ratios>();
  for (const [name, figure] of tls) {
    const peer = plain.get(name);
    if (!peer || name.startsWith('warm-up')) continue;
    ratios.set(name, { throughput: figure.rate / peer.rate, p99: figure.p99 / peer.p99, cpu: figure.serverCpuUs / peer.serverCpuUs });
  }
  return ratios;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Lines of median ratios with [min–max] over the rounds, in the phases' order. */
export function medianLines(rounds: ReadonlyArray<Map<string, Ratios>>): string[] {
  const names = [...(rounds[0]?.keys() ?? [])];
  const f = (n: number) => n.toFixed(2);
  return names.map((name) => {
    const of = (key: keyof Ratios) => rounds.map((r) => r.get(name)?.[key] ?? NaN).filter(Number.isFinite);
    const spread = (values: number[]) => `${f(median(values)).padStart(5)}× [${f(Math.min(...values))}–${f(Math.max(...values))}]`;
    return `${name.padEnd(30)} throughput ${spread(of('throughput'))}   p99 ${spread(of('p99'))}   server CPU/op ${spread(of('cpu'))}`;
  });
}
