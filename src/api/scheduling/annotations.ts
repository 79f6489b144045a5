// Drover's scheduling annotations, written by controllers and read by the scheduler.

/**
 * Host retain, from the original scheduler: a workload's template asks for it with
 * `drover.dev/host-retain: "<seconds>"`; the controller that creates a replacement for a lost
 * pod records the lost pod's node and the deadline, and the scheduler holds the replacement
 * for that node until then (src/scheduler/plugins/host-retain.ts).
 */
export const ANNOTATION_HOST_RETAIN = 'drover.dev/host-retain';
export const ANNOTATION_RETAIN_NODE = 'drover.dev/retain-node';
/** RFC 3339. */
export const ANNOTATION_RETAIN_UNTIL = 'drover.dev/retain-until';
