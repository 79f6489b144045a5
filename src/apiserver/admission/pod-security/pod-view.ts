// What the Pod Security checks read of a pod or pod template, and the phrases their messages
// share. Objects arrive as decoded JSON that already passed schema validation, so reads only
// guard against absent fields.
import { isObject } from '../../../api/meta.js';
import { objects, obj, text, type Obj } from '../../../api/validation/util.js';

/** A pod as the checks see it: its annotations and its spec (of a Pod or of a template). */
export interface PodView {
  annotations: Readonly<Record<string, string>>;
  spec: Obj;
}

/** One way a pod breaks a level, as Kubernetes words it: `privileged` (`container "c" must not ...`). */
export interface Violation {
  reason: string;
  detail: string;
}

/** One rule of the standards, under Kubernetes' check ID (results are ordered by it). */
export interface PodCheck {
  id: string;
  level: 'baseline' | 'restricted';
  /** Baseline checks that this restricted check replaces at the restricted level. */
  replaces?: readonly string[];
  check(pod: PodView): Violation | undefined;
}

export function podViewOf(object: Obj): PodView {
  const metadata = obj(object['metadata']);
  const annotations = isObject(metadata['annotations']) ? (metadata['annotations'] as Record<string, string>) : {};
  return { annotations, spec: obj(object['spec']) };
}

/** Every container in the order Kubernetes visits them: init, regular, ephemeral. */
export function containersOf(spec: Obj): Obj[] {
  return [...objects(spec['initContainers']), ...objects(spec['containers']), ...objects(spec['ephemeralContainers'])];
}

export function nameOf(container: Obj): string {
  return text(container['name']);
}

export function securityContextOf(holder: Obj): Obj {
  return obj(holder['securityContext']);
}

/** Windows pods are exempt from the Linux-only restricted checks (Kubernetes 1.25+). */
export function isWindows(spec: Obj): boolean {
  return obj(spec['os'])['name'] === 'windows';
}

export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** `"a", "b"`, as Go's %q joined with ", ". */
export function joinQuoted(items: readonly string[]): string {
  return items.map((item) => JSON.stringify(item)).join(', ');
}

/** `container "a"` or `containers "a", "b"`. */
export function containersPhrase(names: readonly string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuoted(names)}`;
}

/** The distinct values, sorted (Go's sets.NewString().List()). */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}
