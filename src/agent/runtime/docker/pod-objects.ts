// Sandboxes and app containers of a filter in one engine call: a pod sync reads both, and a
// list is the costliest read the agent makes of dockerd (it walks every container).

import type Docker from 'dockerode';
import type { DockerContext } from './client.js';
import { mapContainerError } from './engine-errors.js';
import { sandboxFromList, withClaimed } from './sandbox.js';
import { labelFilters, toSummary } from './state.js';
import { RuntimeError } from '../errors.js';
import { KIND, MANAGED } from '../labels.js';
import type { ListFilter, PodObjects } from '../runtime.js';

export async function listPodObjects(ctx: DockerContext, filter: ListFilter | undefined): Promise<PodObjects> {
  let list: Docker.ContainerInfo[];
  try {
    list = await ctx.docker.listContainers({ all: filter?.all ?? true, filters: labelFilters(filter, { [MANAGED]: 'true' }) });
  } catch (err) {
    throw mapContainerError(err, '', (message) => new RuntimeError(`list pod objects: ${message}`, { engineMessage: message, cause: err }));
  }
  const sandboxes = await withClaimed(
    ctx,
    filter,
    list.filter((c) => c.Labels?.[KIND] === 'sandbox').flatMap((c) => sandboxFromList(ctx, c)),
  );
  const containers = list.filter((c) => c.Labels?.[KIND] === 'container').map(toSummary);
  return { sandboxes, containers };
}
