// The HorizontalPodAutoscaler printer (Kubernetes' printHorizontalPodAutoscaler): the target,
// each metric as current/target ("cpu: 12%/50%", at most two, then "+ N more..."), the bounds
// and the replicas.
import type { TablePrinter } from '../resource.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { age } from './format.js';
import { at, listAt, recordAt, stringAt, type Json } from './read.js';

const SHOWN_METRICS = 2;

function quantityText(value: unknown): string {
  return value === undefined || value === null ? '<unknown>' : String(value);
}

function metricCell(spec: Json, status: Json | undefined): string {
  const type = spec['type'];
  if (type === 'Resource' || type === 'ContainerResource') {
    const key = type === 'Resource' ? 'resource' : 'containerResource';
    const source = recordAt(spec, key);
    const current = status ? recordAt(status, key, 'current') : {};
    const target = recordAt(source, 'target');
    const name = stringAt(source, 'name');
    if (target['averageValue'] !== undefined) {
      return `${name}: ${status && status[key] ? quantityText(current['averageValue']) : '<unknown>'}/${quantityText(target['averageValue'])}`;
    }
    const utilization = current['averageUtilization'];
    const targetUtilization = target['averageUtilization'];
    return `${name}: ${typeof utilization === 'number' ? `${utilization}%` : '<unknown>'}/${typeof targetUtilization === 'number' ? `${targetUtilization}%` : '<auto>'}`;
  }
  if (type === 'Pods') {
    const current = status ? at(status, 'pods', 'current', 'averageValue') : undefined;
    return `${quantityText(current)}/${quantityText(at(spec, 'pods', 'target', 'averageValue'))}`;
  }
  if (type === 'Object' || type === 'External') {
    const key = type === 'Object' ? 'object' : 'external';
    const target = recordAt(spec, key, 'target');
    const current = status ? recordAt(status, key, 'current') : {};
    if (target['averageValue'] !== undefined) return `${quantityText(current['averageValue'])}/${quantityText(target['averageValue'])} (avg)`;
    return `${quantityText(current['value'])}/${quantityText(target['value'])}`;
  }
  return '<unknown type>';
}

export function hpaTargets(specs: unknown[], statuses: unknown[]): string {
  if (specs.length === 0) return '<none>';
  const cells = specs.map((spec, i) => metricCell(spec as Json, statuses[i] as Json | undefined));
  if (cells.length <= SHOWN_METRICS) return cells.join(', ');
  return `${cells.slice(0, SHOWN_METRICS).join(', ')} + ${cells.length - SHOWN_METRICS} more...`;
}

export const hpaPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Reference', 'string', 'The reference to the autoscaled resource.'),
    column('Targets', 'string', 'The current and target values of the metrics the autoscaler scales by.'),
    column('MinPods', 'string', 'The lower limit of replicas the autoscaler may scale to.'),
    column('MaxPods', 'integer', 'The upper limit of replicas the autoscaler may scale to.'),
    column('Replicas', 'integer', 'Current number of replicas of the autoscaled resource.'),
    AGE_COLUMN,
  ],
  row(hpa, now) {
    const min = at(hpa, 'spec', 'minReplicas');
    return [
      hpa.metadata.name ?? '',
      `${stringAt(hpa, 'spec', 'scaleTargetRef', 'kind')}/${stringAt(hpa, 'spec', 'scaleTargetRef', 'name')}`,
      hpaTargets(listAt(hpa, 'spec', 'metrics'), listAt(hpa, 'status', 'currentMetrics')),
      typeof min === 'number' ? String(min) : '<unset>',
      Number(at(hpa, 'spec', 'maxReplicas') ?? 0),
      Number(at(hpa, 'status', 'currentReplicas') ?? 0),
      age(hpa, now),
    ];
  },
};
