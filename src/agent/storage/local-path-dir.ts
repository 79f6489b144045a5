// Where this node's local-path volumes may live. The agent both makes a volume's directory (when
// a pod first mounts it) and removes it (when the volume is deleted); both sides ask the same
// question, so that a PV naming a path elsewhere can neither make nor remove a directory there.
import { isAbsolute, relative, resolve } from 'node:path';

/** Whether `path` lies strictly inside `dir`. */
export function isInside(dir: string, path: string): boolean {
  const rel = relative(resolve(dir), resolve(path));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
