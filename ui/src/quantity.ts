// Kubernetes quantities ("250m", "64Mi", "1.5G") as numbers: CPU in cores, memory in bytes.
const SUFFIXES: Record<string, number> = {
  n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

export function parseQuantity(text: string | undefined): number {
  if (!text) return 0;
  const match = /^([+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?)([a-zA-Z]*)$/.exec(text.trim());
  if (!match) return 0;
  return Number(match[1]) * (SUFFIXES[match[2]!] ?? 1);
}

export function formatCpu(cores: number | undefined): string {
  if (cores === undefined) return '—';
  return cores < 1 ? `${Math.round(cores * 1000)}m` : `${Number(cores.toFixed(2))}`;
}

export function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined) return '—';
  const units = ['B', 'Ki', 'Mi', 'Gi', 'Ti'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) (value /= 1024), unit++;
  return `${Number(value.toFixed(value < 10 && unit > 0 ? 1 : 0))}${units[unit]}`;
}
