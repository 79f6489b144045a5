// The agent's streaming server (logs, exec, attach, port-forward, signal) and what an agent needs
// to run it.
export { startStreamingServer, type StreamingServer, type StreamingServerOptions } from './streaming-server.js';
export { ResolveError, podNotFound, type ContainerResolver, type ResolveOptions, type ResolvedContainer, type ResolvedSandbox } from './resolver.js';
export { defaultPortDialer, execDial, hostDial, netcatCommand, type PodConnection, type PortDialer } from './port-dialer.js';
export type { SessionInfo } from './upgrades.js';
