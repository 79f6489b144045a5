// Kubernetes' version priority (apimachinery's CompareKubeAwareVersionStrings), which orders a
// group's versions in discovery, the first being the preferred one: GA before beta before alpha,
// higher numbers first within each; versions not of the vNN[(alpha|beta)NN] form last, by name.
const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

function rank(version: string): [number, number, number] | undefined {
  const match = KUBE_VERSION.exec(version);
  if (!match) return undefined;
  const stage = match[2] === undefined ? 2 : match[2] === 'beta' ? 1 : 0;
  return [stage, Number(match[1]), Number(match[3] ?? 0)];
}

/** Negative when `a` comes first. */
export function compareVersionPriority(a: string, b: string): number {
  const ra = rank(a);
  const rb = rank(b);
  if (!ra || !rb) return ra ? -1 : rb ? 1 : a.localeCompare(b);
  if (ra[0] !== rb[0]) return rb[0] - ra[0];
  if (ra[1] !== rb[1]) return rb[1] - ra[1];
  return rb[2] - ra[2];
}
