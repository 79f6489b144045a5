// pods/log, pods/exec, pods/attach, pods/portforward and pods/signal: the API server finds the
// node that runs the pod and hands the request to that node agent's streaming endpoint (its
// address is in the Node's status, as a kubelet's is).
//
// Logs and signals are ordinary requests, re-issued to the agent. exec, attach and port-forward
// are HTTP upgrades (WebSocket, or SPDY/3.1 as kubectl's fallback): the upgrade request is
// rewritten to the agent's kubelet-style path and sent over a fresh TCP connection, and from
// then on both sockets are spliced byte for byte — the agent's 101 (or its error), the WebSocket
// frames, the tunnelled SPDY. The API server never interprets the stream, so whatever the agent
// negotiates with the client works through it.

import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { agentTlsOptions, type AgentClientTls } from './agent-dial.js';
import type { Duplex } from 'node:stream';
import { isObject, type KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import { ApiError, badRequest, methodNotAllowed, pathNotFound, toApiError } from '../errors.js';
import { refuseUpgrade } from '../http-io.js';
import type { ObjectRegistry } from '../registry/object-registry.js';
import { parseResourcePath, splitRequestTarget } from '../routes.js';
import { parseBoolean, parseNonNegativeInt, type ResourceRequest } from './context.js';
import type { SubresourceHandlers } from './resource-handler.js';

export interface AgentAddress {
  node: string;
  host: string;
  port: number;
}

type UpgradeKind = 'exec' | 'attach' | 'portforward';

const DIAL_TIMEOUT_MS = 10_000;
/** Address types in the order the agent is tried by; the first one a node reports wins. */
const ADDRESS_PREFERENCE = ['InternalIP', 'InternalDNS', 'ExternalIP', 'ExternalDNS', 'Hostname'];
/** Not for the agent: it has its own host, and the user's credentials stay with the API server. */
const DROPPED_HEADERS = new Set(['host', 'authorization', 'proxy-authorization']);

const serviceUnavailable = (message: string) => new ApiError(503, 'ServiceUnavailable', message);

function podsDef() {
  return findResource('', 'v1', 'pods')!;
}

/** The agent's streaming address from a Node: status.addresses and daemonEndpoints.kubeletEndpoint.Port. */
export function agentAddressOf(node: KubeObject): { host: string; port: number } | undefined {
  const status = isObject(node['status']) ? node['status'] : {};
  const endpoints = isObject(status['daemonEndpoints']) ? status['daemonEndpoints'] : {};
  const kubelet = isObject(endpoints['kubeletEndpoint']) ? endpoints['kubeletEndpoint'] : {};
  const port = kubelet['Port'];
  if (typeof port !== 'number' || !Number.isInteger(port) || port <= 0 || port > 65535) return undefined;
  const addresses = (Array.isArray(status['addresses']) ? status['addresses'] : []).filter(isObject);
  for (const type of ADDRESS_PREFERENCE) {
    const found = addresses.find((a) => a['type'] === type && typeof a['address'] === 'string' && a['address'] !== '');
    if (found) return { host: found['address'] as string, port };
  }
  return undefined;
}

async function locateAgent(registry: ObjectRegistry, namespace: string, name: string): Promise<{ pod: KubeObject; agent: AgentAddress }> {
  const pod = await registry.get(podsDef(), namespace, name);
  const spec = isObject(pod['spec']) ? pod['spec'] : {};
  const nodeName = typeof spec['nodeName'] === 'string' ? spec['nodeName'] : '';
  if (!nodeName) throw badRequest(`pod ${name} does not have a host assigned`);
  let node: KubeObject;
  try {
    node = await registry.get(findResource('', 'v1', 'nodes')!, undefined, nodeName);
  } catch (error) {
    if (error instanceof ApiError && error.code === 404) throw serviceUnavailable(`node "${nodeName}" of pod ${name} is not registered`);
    throw error;
  }
  const address = agentAddressOf(node);
  if (!address)
    throw serviceUnavailable(
      `node "${nodeName}" of pod ${name} reports no streaming endpoint (status.addresses and status.daemonEndpoints.kubeletEndpoint.Port)`,
    );
  return { pod, agent: { node: nodeName, ...address } };
}

function containerNames(pod: KubeObject, field: string): string[] {
  const spec = isObject(pod['spec']) ? pod['spec'] : {};
  const list = Array.isArray(spec[field]) ? spec[field] : [];
  return list.filter(isObject).map((c) => String(c['name'] ?? ''));
}

/** The container a request names, or the pod's only one; Kubernetes' messages otherwise. */
export function containerOf(pod: KubeObject, requested: string | null): string {
  const name = pod.metadata.name;
  const main = containerNames(pod, 'containers');
  if (requested) {
    const valid = [...main, ...containerNames(pod, 'initContainers'), ...containerNames(pod, 'ephemeralContainers')];
    if (!valid.includes(requested)) throw badRequest(`container ${requested} is not valid for pod ${name}`);
    return requested;
  }
  if (main.length === 1) return main[0]!;
  throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${main.join(' ')}]`);
}

function phaseOf(pod: KubeObject): string {
  const status = isObject(pod['status']) ? pod['status'] : {};
  return typeof status['phase'] === 'string' ? status['phase'] : '';
}

const segment = encodeURIComponent;

/** Validates pods/log parameters here, so that a bad one is a 400 from the API server. */
function logQuery(query: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const name of ['follow', 'previous', 'timestamps']) if (parseBoolean(query, name)) out.set(name, 'true');
  const tailLines = parseNonNegativeInt(query, 'tailLines');
  if (tailLines !== undefined) out.set('tailLines', String(tailLines));
  for (const name of ['sinceSeconds', 'limitBytes']) {
    const value = parseNonNegativeInt(query, name);
    if (value === 0) throw badRequest(`${name}: Invalid value: 0: must be greater than 0`);
    if (value !== undefined) out.set(name, String(value));
  }
  const sinceTime = query.get('sinceTime');
  if (sinceTime) {
    if (out.has('sinceSeconds')) throw badRequest('at most one of sinceTime or sinceSeconds may be specified');
    if (Number.isNaN(new Date(sinceTime).getTime())) throw badRequest(`sinceTime: Invalid value: "${sinceTime}": must be an RFC3339 time`);
    out.set('sinceTime', sinceTime);
  }
  return out;
}

/** Sends a request to the agent (over TLS when `tls` is given); resolves with its response (whatever the status). */
export function agentRequest(agent: AgentAddress, method: string, path: string, tls: AgentClientTls | undefined): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const options = { host: agent.host, port: agent.port, method, path, timeout: DIAL_TIMEOUT_MS };
    const req = tls ? httpsRequest({ ...options, ...agentTlsOptions(tls, agent.node, agent.host), agent: false }, resolve) : httpRequest(options, resolve);
    // The timeout only guards the wait for the response headers; a followed log may idle for long.
    req.once('response', () => req.setTimeout(0));
    req.once('timeout', () => req.destroy(new Error('timed out waiting for the agent')));
    req.once('error', (error) => reject(serviceUnavailable(`error dialing backend: node "${agent.node}" at ${agent.host}:${agent.port}: ${error.message}`)));
    req.end();
  });
}

/** Streams the agent's answer to the client, status and body as they are. */
async function relay(ctx: ResourceRequest, upstream: IncomingMessage): Promise<void> {
  const type = upstream.headers['content-type'] ?? 'text/plain; charset=utf-8';
  ctx.res.writeHead(upstream.statusCode ?? 502, { 'Content-Type': type, 'Cache-Control': 'no-cache' });
  ctx.res.flushHeaders();
  ctx.req.socket.setNoDelay(true);
  ctx.res.once('close', () => upstream.destroy());
  await new Promise<void>((resolve) => {
    upstream.pipe(ctx.res);
    upstream.once('end', resolve);
    upstream.once('close', resolve);
  });
  ctx.res.end();
}

async function servePodLog(ctx: ResourceRequest, tls: AgentClientTls | undefined): Promise<void> {
  if (ctx.req.method !== 'GET') throw methodNotAllowed(ctx.req.method ?? '');
  const query = logQuery(ctx.query);
  const { pod, agent } = await locateAgent(ctx.registry, ctx.path.namespace!, ctx.path.name!);
  const container = containerOf(pod, ctx.query.get('container'));
  const path = `/containerLogs/${segment(ctx.path.namespace!)}/${segment(ctx.path.name!)}/${segment(container)}?${query}`;
  await relay(ctx, await agentRequest(agent, 'GET', path, tls));
}

/** POST pods/NAME/signal?container=C&signal=SIGUSR1 — `drover signal`. */
async function servePodSignal(ctx: ResourceRequest, tls: AgentClientTls | undefined): Promise<void> {
  if (ctx.req.method !== 'POST') throw methodNotAllowed(ctx.req.method ?? '');
  const signal = ctx.query.get('signal');
  if (!signal) throw badRequest('signal: Required value: name the signal to send, e.g. signal=SIGUSR1');
  const { pod, agent } = await locateAgent(ctx.registry, ctx.path.namespace!, ctx.path.name!);
  const container = containerOf(pod, ctx.query.get('container'));
  const path = `/signal/${segment(ctx.path.namespace!)}/${segment(ctx.path.name!)}/${segment(container)}?${new URLSearchParams({ signal })}`;
  await relay(ctx, await agentRequest(agent, 'POST', path, tls));
}

/** exec, attach and portforward only work as upgrades; a plain request gets Kubernetes' answer. */
async function upgradeRequired(): Promise<void> {
  throw badRequest('Upgrade request required');
}

/**
 * The handlers to pass as `subresources` to startApiServer. With `tls`, agents are dialled over
 * TLS (agent-dial.ts); without, over plain HTTP (tests that run a streaming server of their own).
 */
export function podProxySubresources(tls?: AgentClientTls): SubresourceHandlers {
  return new Map([
    ['/pods/log', (ctx: ResourceRequest) => servePodLog(ctx, tls)],
    ['/pods/signal', (ctx: ResourceRequest) => servePodSignal(ctx, tls)],
    ['/pods/exec', upgradeRequired],
    ['/pods/attach', upgradeRequired],
    ['/pods/portforward', upgradeRequired],
  ]);
}

/** The agent's path for an upgrade, with the kubelet's query names (input/output/error/tty). */
function agentUpgradePath(kind: UpgradeKind, namespace: string, pod: KubeObject, query: URLSearchParams): string {
  const base = `${segment(namespace)}/${segment(pod.metadata.name ?? '')}`;
  if (kind === 'portforward') return `/portForward/${base}?${new URLSearchParams(query.getAll('ports').map((p) => ['port', p]))}`;
  const phase = phaseOf(pod);
  if (phase === 'Succeeded' || phase === 'Failed') {
    throw badRequest(`cannot ${kind === 'exec' ? 'exec into' : 'attach to'} a container in a completed pod; current phase is ${phase}`);
  }
  const container = containerOf(pod, query.get('container'));
  const out = new URLSearchParams();
  if (kind === 'exec') for (const part of query.getAll('command')) out.append('command', part);
  const names: Array<[string, string]> = [
    ['stdin', 'input'],
    ['stdout', 'output'],
    ['stderr', 'error'],
    ['tty', 'tty'],
  ];
  for (const [api, kubelet] of names) if (parseBoolean(query, api)) out.set(kubelet, '1');
  return `/${kind}/${base}/${segment(container)}?${out}`;
}

function requestHead(req: IncomingMessage, path: string, agent: AgentAddress): string {
  const lines = [`${req.method ?? 'GET'} ${path} HTTP/1.1`, `Host: ${agent.host}:${agent.port}`];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (!DROPPED_HEADERS.has(name.toLowerCase())) lines.push(`${name}: ${req.rawHeaders[i + 1]!}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

function dialAgent(agent: AgentAddress, tls: AgentClientTls | undefined): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const upstream = tls
      ? tlsConnect({ host: agent.host, port: agent.port, ...agentTlsOptions(tls, agent.node, agent.host) })
      : connect({ host: agent.host, port: agent.port });
    const fail = (error: Error) => {
      clearTimeout(timer);
      upstream.destroy();
      reject(serviceUnavailable(`error dialing backend: node "${agent.node}" at ${agent.host}:${agent.port}: ${error.message}`));
    };
    const timer = setTimeout(() => fail(new Error('timed out')), DIAL_TIMEOUT_MS);
    upstream.once('error', fail);
    upstream.once(tls ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      upstream.off('error', fail);
      upstream.setNoDelay(true);
      resolve(upstream);
    });
  });
}

/** Joins the client's socket to the agent's; either side closing closes both. */
function splice(client: Duplex, upstream: Socket): void {
  const teardown = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', teardown);
  upstream.on('error', teardown);
  client.once('close', teardown);
  upstream.once('close', teardown);
  client.pipe(upstream);
  upstream.pipe(client);
}

function upgradeKindOf(pathname: string): { kind: UpgradeKind; namespace: string; name: string } | undefined {
  const path = parseResourcePath(pathname);
  const sub = path?.subresource;
  if (!path || path.group !== '' || path.plural !== 'pods' || !path.namespace || !path.name) return undefined;
  if (sub !== 'exec' && sub !== 'attach' && sub !== 'portforward') return undefined;
  return { kind: sub, namespace: path.namespace, name: path.name };
}

async function proxyUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, registry: ObjectRegistry, tls: AgentClientTls | undefined): Promise<void> {
  const url = splitRequestTarget(req.url ?? '/');
  const target = upgradeKindOf(url.pathname);
  if (!target) throw pathNotFound(url.pathname);
  const { pod, agent } = await locateAgent(registry, target.namespace, target.name);
  const path = agentUpgradePath(target.kind, target.namespace, pod, url.query);
  const upstream = await dialAgent(agent, tls);
  if (socket.destroyed) return void upstream.destroy();
  upstream.write(requestHead(req, path, agent));
  if (head.length > 0) upstream.write(head);
  splice(socket, upstream);
}

/**
 * The http.Server 'upgrade' listener for pods/exec, pods/attach and pods/portforward. Anything
 * else that asks to upgrade gets a Status error.
 */
export function podUpgradeHandler(tls?: AgentClientTls): (req: IncomingMessage, socket: Duplex, head: Buffer, registry: ObjectRegistry) => void {
  return (req, socket, head, registry) => {
    socket.on('error', () => socket.destroy());
    // Streams idle for long (a shell, a forwarded port): no socket timeout applies to them.
    (socket as Partial<Socket>).setTimeout?.(0);
    proxyUpgrade(req, socket, head, registry, tls).catch((error: unknown) => refuseUpgrade(socket, toApiError(error)));
  };
}

/** podUpgradeHandler for agents served over plain HTTP (tests with a streaming server of their own). */
export const handlePodUpgrade = podUpgradeHandler();
