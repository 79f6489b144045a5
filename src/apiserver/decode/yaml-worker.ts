// The thread that parses large YAML bodies (see yaml-offload.ts), one at a time.
import '../prototype-guard.js';
import { parentPort } from 'node:worker_threads';
import { ApiError } from '../errors.js';
import { decodeYamlBody } from './yaml-body.js';
import type { YamlReply, YamlRequest } from './yaml-offload.js';

parentPort!.on('message', ({ id, text }: YamlRequest) => {
  let reply: YamlReply;
  try {
    reply = { id, ...decodeYamlBody(text) };
  } catch (error) {
    const apiError = error instanceof ApiError ? error : new ApiError(400, 'BadRequest', `the request body is not valid YAML: ${String(error)}`);
    reply = { id, error: { code: apiError.code, reason: apiError.reason, message: apiError.message } };
  }
  parentPort!.postMessage(reply);
});
