// Per-GPU metrics under dcgm-exporter's names and labels, so dashboards and alerts written for
// dcgm-exporter work against an agent's /metrics unchanged. Values are the last poll's; a field
// the GPU does not report is left out rather than shown as 0. FB_* are MiB, POWER_USAGE watts,
// GPU_TEMP degrees C, GPU_UTIL percent, as DCGM's fields are.
import { Gauge, Registry } from 'prom-client';
import type { GpuMonitor } from './gpu-monitor.js';
import type { GpuSample } from './nvidia-smi.js';

/** The pod container holding a GPU (allocator index), if any. */
export interface GpuHolder {
  namespace: string;
  pod: string;
  container: string;
}

export type HolderLookup = (index: number) => GpuHolder | undefined;

const LABELS = ['gpu', 'UUID', 'device', 'modelName', 'Hostname', 'namespace', 'pod', 'container'] as const;

const FIELDS: Array<[string, string, (s: GpuSample) => number | undefined]> = [
  ['DCGM_FI_DEV_GPU_UTIL', 'GPU utilization (in %).', (s) => s.utilizationPercent],
  ['DCGM_FI_DEV_FB_USED', 'Framebuffer memory used (in MiB).', (s) => s.memoryUsedMiB],
  [
    'DCGM_FI_DEV_FB_FREE',
    'Framebuffer memory free (in MiB).',
    (s) => (s.memoryTotalMiB !== undefined && s.memoryUsedMiB !== undefined ? s.memoryTotalMiB - s.memoryUsedMiB : undefined),
  ],
  ['DCGM_FI_DEV_GPU_TEMP', 'GPU temperature (in C).', (s) => s.temperatureC],
  ['DCGM_FI_DEV_POWER_USAGE', 'Power draw (in W).', (s) => s.powerW],
];

export function gpuRegistry(monitor: GpuMonitor, hostname: string, holderOf: HolderLookup): Registry {
  const registry = new Registry();
  for (const [name, help, value] of FIELDS) {
    new Gauge({
      name,
      help,
      labelNames: LABELS,
      registers: [registry],
      collect() {
        this.reset();
        monitor.gpus.forEach((gpu, i) => {
          const sample = monitor.sample(gpu.uuid);
          const v = sample && value(sample);
          if (v === undefined) return;
          const holder = holderOf(i);
          this.set(
            {
              gpu: String(i),
              UUID: gpu.uuid,
              device: `nvidia${gpu.index}`,
              modelName: gpu.name,
              Hostname: hostname,
              namespace: holder?.namespace ?? '',
              pod: holder?.pod ?? '',
              container: holder?.container ?? '',
            },
            v,
          );
        });
      },
    });
  }
  return registry;
}
