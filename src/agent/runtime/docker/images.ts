// Image presence and pulls under the Kubernetes pull policies.

import type { DockerContext } from './client.js';
import { engineMessage, genericError, isUnavailable, statusOf, unavailable } from './engine-errors.js';
import { ImageNotFoundError, ImagePullError, RuntimeError } from '../errors.js';
import type { ImageInfo, PullPolicy } from '../runtime.js';

/** Splits a reference into repository and tag-or-digest; no tag means "latest". */
export function parseImageRef(image: string): { repository: string; tag: string; ref: string } {
  const at = image.indexOf('@');
  if (at >= 0) {
    const repository = image.slice(0, at);
    const digest = image.slice(at + 1);
    return { repository, tag: digest, ref: image };
  }
  const slash = image.lastIndexOf('/');
  const colon = image.lastIndexOf(':');
  // A colon before the last slash belongs to a registry host:port, not a tag.
  if (colon > slash) {
    return { repository: image.slice(0, colon), tag: image.slice(colon + 1), ref: image };
  }
  return { repository: image, tag: 'latest', ref: `${image}:latest` };
}

type Lookup = { info: ImageInfo } | { missing: string };

async function lookup(ctx: DockerContext, ref: string): Promise<Lookup> {
  try {
    const data = await ctx.docker.getImage(ref).inspect();
    return {
      info: { id: data.Id, ref, repoTags: data.RepoTags ?? [], sizeBytes: data.Size },
    };
  } catch (err) {
    if (statusOf(err) === 404) return { missing: engineMessage(err) };
    throw genericError(err, `inspect image ${ref}`);
  }
}

export async function inspectImage(ctx: DockerContext, image: string): Promise<ImageInfo | undefined> {
  const found = await lookup(ctx, parseImageRef(image).ref);
  return 'info' in found ? found.info : undefined;
}

export async function pullImage(ctx: DockerContext, image: string, policy: PullPolicy): Promise<ImageInfo> {
  const { ref } = parseImageRef(image);
  if (policy !== 'Always') {
    const found = await lookup(ctx, ref);
    if ('info' in found) return found.info;
    if (policy === 'Never') {
      throw new ImageNotFoundError(image, `Container image "${image}" is not present with pull policy of Never: ${found.missing}`, {
        engineMessage: found.missing,
      });
    }
  }
  await pull(ctx, image);
  const found = await lookup(ctx, ref);
  if ('info' in found) return found.info;
  throw new ImageNotFoundError(image, `image ${image} is missing after a successful pull: ${found.missing}`, {
    engineMessage: found.missing,
  });
}

// Registries answer a missing image in several ways; Docker passes their words on.
const NOT_FOUND = /not found|manifest unknown|does not exist|no such image|name unknown/i;

function pullError(image: string, err: unknown, message: string): RuntimeError {
  if (isUnavailable(err)) return unavailable(err);
  const statusCode = statusOf(err);
  const opts = { engineMessage: message, cause: err, ...(statusCode === undefined ? {} : { statusCode }) };
  const text = `failed to pull image "${image}": ${message}`;
  return NOT_FOUND.test(message) ? new ImageNotFoundError(image, text, opts) : new ImagePullError(image, text, opts);
}

/** Pulls through the engine; a failure may come as an HTTP error or inside the progress stream. */
async function pull(ctx: DockerContext, image: string): Promise<void> {
  const { repository, tag } = parseImageRef(image);
  let stream: NodeJS.ReadableStream;
  try {
    stream = await ctx.docker.createImage({ fromImage: repository, tag });
  } catch (err) {
    throw pullError(image, err, engineMessage(err));
  }
  await new Promise<void>((resolve, reject) => {
    ctx.docker.modem.followProgress(stream, (err: unknown, output: unknown[]) => {
      if (err) return reject(pullError(image, err, engineMessage(err)));
      const failed = output.find((line): line is { error: string } => typeof (line as { error?: unknown }).error === 'string');
      if (failed) return reject(pullError(image, undefined, failed.error));
      resolve();
    });
  });
}
