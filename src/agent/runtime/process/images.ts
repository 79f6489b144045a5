// Images do not apply to host processes: the command comes from the host's
// filesystem. Every pull policy succeeds — "Never" included, since there is nothing
// that could be missing — so a pod written for Docker runs unchanged once its
// runtimeClassName says process. The image id is a digest of the reference: stable
// (the same imageID on every node and after restarts) and plainly no registry's.

import { createHash } from 'node:crypto';
import type { ImageInfo } from '../runtime.js';

/** A reference with its tag, as Docker names it ("busybox" → "busybox:latest"). */
export function normaliseRef(image: string): string {
  if (image.includes('@')) return image;
  const slash = image.lastIndexOf('/');
  return image.lastIndexOf(':') > slash ? image : `${image}:latest`;
}

export function imageInfo(image: string): ImageInfo {
  const ref = normaliseRef(image);
  const id = `sha256:${createHash('sha256').update(`drover-process-image:${ref}`).digest('hex')}`;
  return { id, ref, repoTags: [ref], sizeBytes: 0 };
}
