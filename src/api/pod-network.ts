// Whether a pod shares its node's network: a host process (`runtimeClassName: process`) always
// does, a container with `hostNetwork: true` too. Such a pod's ports are the node's, and names
// resolve through the node's resolver.
export function sharesNodeNetwork(spec: object | undefined): boolean {
  const { runtimeClassName, hostNetwork } = (spec ?? {}) as { runtimeClassName?: unknown; hostNetwork?: unknown };
  return runtimeClassName === 'process' || hostNetwork === true;
}
