// What the data checker (src/checker/) asks an agent: which pods it has containers of, and to
// clean up the containers of a pod the API no longer has.
//   GET    /pods         {"node": "...", "pods": [{"uid": "...", "state": "running|terminating|unknown"}]}
//   DELETE /pods/{uid}   202 when the clean-up is queued; 409 while the agent still has the pod
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamingError, notFound } from './status.js';

/** running: a pod the agent has; terminating: one it saw deleted and is cleaning up; unknown: neither. */
export type InventoryState = 'running' | 'terminating' | 'unknown';

export interface PodInventory {
  nodeName: string;
  /** The pod uids of this node's containers and sandboxes, in every runtime. */
  list(): Promise<Array<{ uid: string; state: InventoryState }>>;
  /** Queues the clean-up of an unknown pod's containers; 'known' when the agent has the pod. */
  cleanUp(uid: string): 'queued' | 'known';
}

export function isInventoryPath(pathname: string): boolean {
  return pathname === '/pods' || pathname.startsWith('/pods/');
}

export async function serveInventory(req: IncomingMessage, res: ServerResponse, pathname: string, inventory: PodInventory | undefined): Promise<void> {
  if (!inventory) throw notFound('this agent keeps no pod inventory');
  const method = req.method ?? 'GET';
  if (pathname === '/pods') {
    if (method !== 'GET') throw new StreamingError(405, 'MethodNotAllowed', `${method} is not allowed on /pods`);
    const body = JSON.stringify({ node: inventory.nodeName, pods: await inventory.list() });
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
    return;
  }
  const uid = decodeURIComponent(pathname.slice('/pods/'.length));
  if (!uid || uid.includes('/')) throw notFound(`the agent serves no ${pathname}`);
  if (method !== 'DELETE') throw new StreamingError(405, 'MethodNotAllowed', `${method} is not allowed on a pod; use DELETE`);
  if (inventory.cleanUp(uid) === 'known') throw new StreamingError(409, 'Conflict', `the agent of node ${inventory.nodeName} still has pod ${uid}`);
  res.writeHead(202, { 'Content-Type': 'application/json' }).end(JSON.stringify({ uid, state: 'terminating' }));
}
