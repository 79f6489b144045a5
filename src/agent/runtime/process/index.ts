export { ProcessRuntime } from './process-runtime.js';
export type { ProcessRuntimeOptions } from './context.js';
