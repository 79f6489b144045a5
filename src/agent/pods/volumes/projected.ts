// Projected volumes: several sources (secret, configMap, downwardAPI, serviceAccountToken) in one
// directory, as the kubelet's projected plugin writes them. Every pod's kube-api-access volume is
// one: its token (bound to the pod, refreshed before 80 % of its life is gone), the cluster CA
// and the namespace. The whole set is swapped in at once (atomic-dir.ts), so a reader never sees
// a half-written token.
import { normalize } from 'node:path';
import type { FileContent } from './atomic-dir.js';
import type { ServiceAccountTokenSource, TokenProjection } from './service-account-tokens.js';
import { configMapFiles, downwardFiles, secretFiles, VolumeError, type SourceContext } from './source-files.js';
import type { Pod, ProjectedVolumeSource } from '../../../api/core/index.js';

export async function projectedFiles(
  ctx: SourceContext & { tokens?: ServiceAccountTokenSource | undefined },
  source: ProjectedVolumeSource,
): Promise<Map<string, FileContent>> {
  const mode = source.defaultMode ?? 0o644;
  const files = new Map<string, FileContent>();
  const add = (more: Map<string, FileContent>) => {
    for (const [path, file] of more) files.set(path, file);
  };
  for (const part of source.sources ?? []) {
    if (part.secret) add(await secretFiles(ctx, part.secret, mode));
    else if (part.configMap) add(await configMapFiles(ctx, part.configMap, mode));
    else if (part.downwardAPI) add(downwardFiles(ctx.pod, part.downwardAPI.items, mode));
    else if (part.serviceAccountToken)
      files.set(normalize(part.serviceAccountToken.path), { content: Buffer.from(await token(ctx, ctx.pod, part.serviceAccountToken)), mode });
  }
  return files;
}

async function token(ctx: SourceContext & { tokens?: ServiceAccountTokenSource | undefined }, pod: Pod, projection: TokenProjection): Promise<string> {
  if (!ctx.tokens) throw new VolumeError(`MountVolume.SetUp failed for volume "${ctx.volume}" : this node cannot request service account tokens`);
  try {
    return await ctx.tokens.token(pod, projection);
  } catch (error) {
    throw new VolumeError(`MountVolume.SetUp failed for volume "${ctx.volume}" : ${(error as Error).message}`);
  }
}
