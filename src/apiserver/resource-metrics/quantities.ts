// Usage figures as metrics-server writes them: CPU as a decimal quantity of nanocores
// (resource.NewScaledQuantity(n, Nano)), memory as a binary quantity of bytes
// (resource.NewQuantity(b, BinarySI)), both in Kubernetes' canonical text ("250m", "1234567n",
// "2Mi", "12345"), and the window as Go prints a time.Duration ("15.002s", "1m0.5s").
import { formatQuantity } from '../../api/quota/quantity.js';

export function cpuQuantity(nanoCores: number): string {
  return formatQuantity({ nano: BigInt(Math.max(0, Math.round(nanoCores))), format: 'DecimalSI' });
}

export function memoryQuantity(bytes: number): string {
  return formatQuantity({ nano: BigInt(Math.max(0, Math.round(bytes))) * 1_000_000_000n, format: 'BinarySI' });
}

/** time.Duration.String() for a non-negative number of seconds, to the millisecond. */
export function goDuration(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const secMs = ms % 60_000;
  const secText = `${Math.floor(secMs / 1000)}${
    secMs % 1000
      ? `.${String(secMs % 1000)
          .padStart(3, '0')
          .replace(/0+$/, '')}`
      : ''
  }s`;
  if (hours > 0) return `${hours}h${minutes}m${secText}`;
  if (minutes > 0) return `${minutes}m${secText}`;
  return secText;
}
