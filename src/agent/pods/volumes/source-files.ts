// The files of configMap, secret and downwardAPI sources, as volumes of their own and as sources
// of a projected volume: each turns one source into relative paths with content and mode.
import { normalize } from 'node:path';
import type { FileContent } from './atomic-dir.js';
import { configMapBytes, secretBytes, type ConfigSource } from '../config-source.js';
import { formatMap } from '../containers/env.js';
import type { DownwardAPIVolumeFile, KeyProjection, KeyToPath, Pod } from '../../../api/core/index.js';

export class VolumeError extends Error {
  readonly reason = 'FailedMount';
}

export interface SourceContext {
  pod: Pod;
  sources: ConfigSource;
  /** The volume's name, for messages. */
  volume: string;
}

function projectKeys(all: Record<string, Buffer>, items: KeyToPath[] | undefined, mode: number, what: string, optional: boolean): Map<string, FileContent> {
  const files = new Map<string, FileContent>();
  if (!items || items.length === 0) {
    for (const [key, content] of Object.entries(all)) files.set(key, { content, mode });
    return files;
  }
  for (const item of items) {
    const content = all[item.key];
    if (content === undefined) {
      if (optional) continue;
      throw new VolumeError(`configuration error: ${what}: no key ${item.key}`);
    }
    files.set(normalize(item.path), { content, mode: item.mode ?? mode });
  }
  return files;
}

/** The two kinds of keyed source, by the word Kubernetes' messages use for each. */
type KeyedKind = 'configmap' | 'secret';

async function keyedBytes(sources: ConfigSource, kind: KeyedKind, ns: string, name: string): Promise<Record<string, Buffer> | undefined> {
  if (kind === 'configmap') {
    const cm = await sources.configMap(ns, name);
    return cm && configMapBytes(cm);
  }
  const secret = await sources.secret(ns, name);
  return secret && secretBytes(secret);
}

/** A configMap's or secret's keys as files; a missing object is a FailedMount unless optional. */
async function keyedFiles(ctx: SourceContext, kind: KeyedKind, source: KeyProjection, mode: number): Promise<Map<string, FileContent>> {
  const ns = ctx.pod.metadata.namespace ?? 'default';
  const name = source.name ?? '';
  const all = await keyedBytes(ctx.sources, kind, ns, name);
  if (!all) {
    if (source.optional) return new Map();
    throw new VolumeError(`MountVolume.SetUp failed for volume "${ctx.volume}" : ${kind} "${name}" not found`);
  }
  return projectKeys(all, source.items, mode, `${kind} ${ns}/${name}`, source.optional ?? false);
}

export function configMapFiles(ctx: SourceContext, source: KeyProjection, mode: number): Promise<Map<string, FileContent>> {
  return keyedFiles(ctx, 'configmap', source, mode);
}

export function secretFiles(ctx: SourceContext, source: KeyProjection, mode: number): Promise<Map<string, FileContent>> {
  return keyedFiles(ctx, 'secret', source, mode);
}

export function downwardFiles(pod: Pod, items: DownwardAPIVolumeFile[] | undefined, mode: number): Map<string, FileContent> {
  const meta = pod.metadata;
  const files = new Map<string, FileContent>();
  for (const item of items ?? []) {
    const path = item.fieldRef?.fieldPath ?? '';
    const indexed = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
    let value: string;
    if (indexed) value = (indexed[1] === 'labels' ? meta.labels : meta.annotations)?.[indexed[2]!] ?? '';
    else if (path === 'metadata.labels') value = formatMap(meta.labels);
    else if (path === 'metadata.annotations') value = formatMap(meta.annotations);
    else if (path === 'metadata.name') value = meta.name ?? '';
    else if (path === 'metadata.namespace') value = meta.namespace ?? '';
    else if (path === 'metadata.uid') value = meta.uid ?? '';
    else continue;
    files.set(normalize(item.path), { content: Buffer.from(value), mode: item.mode ?? mode });
  }
  return files;
}
