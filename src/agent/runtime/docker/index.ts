export { DockerRuntime } from './docker-runtime.js';
export { DEFAULT_PAUSE_IMAGE, type DockerRuntimeOptions } from './client.js';
