// The bodies the API answers with, for the audit entries that keep them (RequestResponse). The
// writers in http-io.ts hand every body here; a response whose entry does not want it costs
// one WeakMap lookup.
import type { ServerResponse } from 'node:http';

/** A body as written: a value, or JSON text that is already serialized (a stored object's own). */
export type ResponseBody = { value: unknown } | { json: string | Uint8Array };

const recorders = new WeakMap<ServerResponse, (body: ResponseBody) => void>();

export function captureResponses(res: ServerResponse, record: (body: ResponseBody) => void): void {
  recorders.set(res, record);
}

export function auditResponse(res: ServerResponse, body: ResponseBody): void {
  recorders.get(res)?.(body);
}
