// Docker's container records → the runtime's status types.

import type Docker from 'dockerode';
import { parseDockerTime } from './client.js';
import type { ContainerState, ContainerStatus, ContainerSummary, ListFilter } from '../runtime.js';

/**
 * Paused and restarting containers still hold a running process; "dead" and
 * "removing" ones are past their end. Anything else is unknown to the agent.
 */
export function mapState(status: string | undefined, running?: boolean): ContainerState {
  if (running || status === 'running' || status === 'paused' || status === 'restarting') return 'running';
  if (status === 'created') return 'created';
  if (status === 'exited' || status === 'dead' || status === 'removing') return 'exited';
  return 'unknown';
}

export function toStatus(info: Docker.ContainerInspectInfo): ContainerStatus {
  const s = info.State;
  let startedAt = parseDockerTime(s.StartedAt);
  const finishedAt = parseDockerTime(s.FinishedAt);
  // Docker stamps StartedAt after runc returns, so a process that exits at once can
  // show FinishedAt a millisecond before StartedAt; a status must not run backwards.
  // (A running container restarted in place legitimately has an older FinishedAt.)
  if (startedAt && finishedAt && finishedAt < startedAt && !s.Running) startedAt = finishedAt;
  return {
    id: info.Id,
    runtimeName: info.Name.replace(/^\//, ''),
    state: mapState(s.Status, s.Running),
    exitCode: s.ExitCode,
    oomKilled: s.OOMKilled,
    ...(startedAt ? { startedAt } : {}),
    ...(finishedAt ? { finishedAt } : {}),
    createdAt: new Date(info.Created),
    error: s.Error ?? '',
    image: info.Config.Image,
    imageId: info.Image,
    pid: s.Pid,
    tty: info.Config.Tty,
    labels: info.Config.Labels ?? {},
  };
}

export function toSummary(info: Docker.ContainerInfo): ContainerSummary {
  return {
    id: info.Id,
    runtimeName: (info.Names[0] ?? '').replace(/^\//, ''),
    state: mapState(info.State),
    image: info.Image,
    imageId: info.ImageID,
    createdAt: new Date(info.Created * 1000),
    labels: info.Labels ?? {},
  };
}

/** Docker's `filters` query for a label filter, always including `extra`. */
export function labelFilters(filter: ListFilter | undefined, extra: Record<string, string>): { label: string[] } {
  const wanted: Record<string, string | true> = { ...(filter?.labels ?? {}), ...extra };
  return {
    label: Object.entries(wanted).map(([k, v]) => (v === true ? k : `${k}=${v}`)),
  };
}
