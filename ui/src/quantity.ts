// Kubernetes quantities ("250m", "64Mi", "1.5G") as numbers, CPU in cores and memory in bytes,
// with the API server's own parser (a pure module, bundled into the page), and back as text.
import { parseQuantity as parseShared } from '../../src/api/validation/quantity.js';

/** 0 for a missing or malformed quantity: the pages sum them. */
export function parseQuantity(text: string | undefined): number {
  return parseShared(text) ?? 0;
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
  while (value >= 1024 && unit < units.length - 1) ((value /= 1024), unit++);
  return `${Number(value.toFixed(value < 10 && unit > 0 ? 1 : 0))}${units[unit]}`;
}
