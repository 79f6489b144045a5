// The node agent: startAgent, and what the streaming server and the CLI need from it.
export { startAgent, type Agent, type AgentOptions } from './agent.js';
export { createResolver } from './container-resolver.js';
export { ResolveError, type ContainerResolver, type ResolveOptions, type ResolvedContainer, type ResolvedSandbox } from './streaming/resolver.js';
export { NODE_LABEL } from './agent-labels.js';
export { KUBELET_VERSION } from './node/node-object.js';
export { LEASE_NAMESPACE, LEASE_DURATION_SECONDS } from './node/node-lease.js';
