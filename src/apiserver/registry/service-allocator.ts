// Cluster IPs and node ports for Services, each handed to one Service only, as Kubernetes'
// allocators do. One book per store knows what the stored Services hold (a list, then a watch,
// so deletions by any path free their addresses) and what creates in flight have reserved.
// A reservation is taken synchronously, so concurrent creates never get the same address; one
// whose create never lands (rejected, dry run) lapses after RESERVATION_MS.
//
// The book lives in each API server process. On a store several servers share (etcd), the
// books only advise: every address taken is also claimed in the store with a create-only write
// (address-claims.ts), so two servers never hand out the same one; the loser picks again. On
// SQLite, which one server owns, the book alone decides, with no extra writes.
import { addressAt, cidrContains, ipToNumber, parseCidr, type Cidr, type ClusterNetwork } from '../../api/cluster-network.js';
import { isObject, type KubeObject } from '../../api/meta.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { Store, StoreEvent, Watch } from '../../storage/store.js';
import { badRequest, internalError, invalid } from '../errors.js';
import { claimAddress, releaseInBackground, type AddressKind, type Claimant } from './address-claims.js';
import { AddressPicker, staticBand } from './address-picker.js';
import { keyFor, prefixFor } from './keys.js';

/** The first ten addresses of the service range are left for the system (`kubernetes` is .1). */
const CLUSTER_IP_FIRST = 10;
const NODE_PORT_MIN = 30000;
const NODE_PORT_MAX = 32767;
const RESERVATION_MS = 60_000;
/** Addresses lost to other servers' claims before a create gives up (each loss picks anew). */
const CLAIM_ROUNDS = 16;

/** Where cluster IPs come from: the service CIDR, less the cluster DNS's address. */
export type ServiceRange = Pick<ClusterNetwork, 'serviceCidr' | 'clusterDns'>;

type Spec = Record<string, unknown>;

function serviceKey(service: KubeObject): string {
  return `${service.metadata.namespace}/${service.metadata.name}`;
}

function specOf(service: KubeObject | undefined): Spec {
  return service && isObject(service['spec']) ? service['spec'] : {};
}

function clusterIPsOf(spec: Spec): string[] {
  const ips = Array.isArray(spec['clusterIPs']) ? spec['clusterIPs'].filter((ip): ip is string => typeof ip === 'string') : [];
  if (typeof spec['clusterIP'] === 'string') ips.push(spec['clusterIP']);
  return ips.filter((ip) => ip !== '' && ip !== 'None');
}

function nodePortsOf(spec: Spec): number[] {
  const ports = Array.isArray(spec['ports']) ? spec['ports'].filter(isObject) : [];
  return ports.map((p) => p['nodePort']).filter((port): port is number => typeof port === 'number' && port > 0);
}

/** Addresses of one kind: who holds each (a service key) and which are reserved until when. */
class Pool<T> {
  private readonly owners = new Map<T, string>();
  /** Reservations: until when, and for which Service ('' for one another server claimed). */
  private readonly reserved = new Map<T, { until: number; key: string }>();

  owner(value: T): string | undefined {
    return this.owners.get(value);
  }

  own(value: T, key: string): void {
    this.owners.set(value, key);
    this.reserved.delete(value);
  }

  release(value: T, key: string): void {
    if (this.owners.get(value) === key) this.owners.delete(value);
  }

  /** Whether `value` is held or reserved by anyone but the Service `key`. */
  taken(value: T, now: number, key: string): boolean {
    const owner = this.owners.get(value);
    if (owner !== undefined) return owner !== key;
    const reservation = this.reserved.get(value);
    if (reservation === undefined) return false;
    if (reservation.until > now) return reservation.key !== key;
    this.reserved.delete(value);
    return false;
  }

  reserve(value: T, now: number, key: string): void {
    this.reserved.set(value, { until: now + RESERVATION_MS, key });
  }

  /** Gives up a reservation (its write failed or was a dry run); what the store holds stays held. */
  unreserve(value: T): void {
    this.reserved.delete(value);
  }
}

/** What one write reserved, to give back if the write does not land. */
export interface Reservations {
  ips: string[];
  ports: number[];
}

class ServiceAddressBook {
  private readonly ips = new Pool<string>();
  private readonly ports = new Pool<number>();
  /** Where cluster IPs (offsets in the range) and node ports that nobody asked for come from. */
  private readonly ipPicker: AddressPicker;
  private readonly portPicker: AddressPicker;
  private watch: Watch | undefined;
  private readonly cidr: Cidr;
  /**
   * The DNS Service's address may lie past the first ten (--cluster-dns): never handed out on
   * its own, so kube-dns can always have it.
   */
  private readonly dnsOffset: number | undefined;

  private constructor(
    private readonly store: Store,
    private readonly range: ServiceRange,
  ) {
    this.cidr = parseCidr(range.serviceCidr)!;
    const dns = ipToNumber(range.clusterDns);
    this.dnsOffset = dns === undefined ? undefined : dns - this.cidr.base;
    // Offsets up to size-2 (the last address is the range's broadcast address), from the first
    // ten on. A range no larger than its band (a /28) has nothing above it: it picks in the band.
    const lastIp = this.cidr.size - 2;
    const ipBand = staticBand(this.cidr.size, 'ip');
    this.ipPicker = new AddressPicker(
      { first: Math.max(CLUSTER_IP_FIRST, ipBand + 1), last: lastIp },
      { first: CLUSTER_IP_FIRST, last: Math.min(ipBand, lastIp) },
      store.shared === true,
    );
    const portBand = staticBand(NODE_PORT_MAX - NODE_PORT_MIN + 1, 'port');
    this.portPicker = new AddressPicker(
      { first: NODE_PORT_MIN + portBand, last: NODE_PORT_MAX },
      { first: NODE_PORT_MIN, last: NODE_PORT_MIN + portBand - 1 },
      store.shared === true,
    );
  }

  static async open(store: Store, def: ResourceDefinition, range: ServiceRange): Promise<ServiceAddressBook> {
    const book = new ServiceAddressBook(store, range);
    const prefix = prefixFor(def);
    const { items, revision } = await store.list({ prefix });
    for (const service of items) book.hold(service);
    // A closed store ends the watch; nothing is allocated after that.
    book.watch = store.watch(
      { prefix, fromRevision: revision },
      (event) => book.apply(event),
      () => undefined,
    );
    return book;
  }

  close(): void {
    this.watch?.stop();
  }

  private apply(event: StoreEvent): void {
    if (event.prevObject) this.free(event.prevObject);
    if (event.type !== 'DELETED') this.hold(event.object);
    if (this.store.shared && event.prevObject) this.releaseClaims(event.prevObject, event.type === 'DELETED' ? undefined : event.object);
  }

  /**
   * Drops the store's claims on what the Service let go (all of it when deleted). Every server
   * sees the event and tries; a claim is dropped only while it is still that Service's.
   */
  private releaseClaims(before: KubeObject, after: KubeObject | undefined): void {
    const uid = before.metadata.uid ?? '';
    const keptIps = new Set(clusterIPsOf(specOf(after)));
    const keptPorts = new Set(nodePortsOf(specOf(after)));
    for (const ip of clusterIPsOf(specOf(before))) if (!keptIps.has(ip)) releaseInBackground(this.store, 'ip', ip, uid);
    for (const port of nodePortsOf(specOf(before))) if (!keptPorts.has(port)) releaseInBackground(this.store, 'port', port, uid);
  }

  /** Another server claimed it first: skip it until that Service shows up in the watch. */
  heldElsewhere(kind: AddressKind, value: string | number): void {
    if (kind === 'ip') this.ips.reserve(value as string, Date.now(), '');
    else this.ports.reserve(value as number, Date.now(), '');
  }

  private hold(service: KubeObject): void {
    const key = serviceKey(service);
    const spec = specOf(service);
    for (const ip of clusterIPsOf(spec)) this.ips.own(ip, key);
    for (const port of nodePortsOf(spec)) this.ports.own(port, key);
  }

  private free(service: KubeObject): void {
    const key = serviceKey(service);
    const spec = specOf(service);
    for (const ip of clusterIPsOf(spec)) this.ips.release(ip, key);
    for (const port of nodePortsOf(spec)) this.ports.release(port, key);
  }

  /** Gives back what a write reserved that it does not own (a failed or dry-run write). */
  release(reservations: Reservations): void {
    for (const ip of reservations.ips) this.ips.unreserve(ip);
    for (const port of reservations.ports) this.ports.unreserve(port);
  }

  allocateClusterIP(service: KubeObject, key: string, made: Reservations): void {
    const spec = specOf(service);
    if (spec['type'] === 'ExternalName' || spec['clusterIP'] === 'None') return;
    const now = Date.now();
    const requested = clusterIPsOf(spec);
    if (requested.length > 0) {
      for (const ip of requested) {
        // What the Service already holds stays its own, even from a range the server had before.
        if (this.ips.owner(ip) !== key && !cidrContains(this.cidr, ip)) {
          throw alreadyAllocated(
            service,
            'spec.clusterIPs',
            ip,
            `failed to allocate IP ${ip}: the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${this.range.serviceCidr}`,
          );
        }
        if (this.ips.taken(ip, now, key))
          throw alreadyAllocated(service, 'spec.clusterIPs', ip, `failed to allocate IP ${ip}: provided IP is already allocated`);
      }
      for (const ip of requested) {
        if (this.ips.owner(ip) === key) continue;
        this.ips.reserve(ip, now, key);
        made.ips.push(ip);
      }
      spec['clusterIPs'] ??= [spec['clusterIP']];
      return;
    }
    const offset = this.ipPicker.pick((candidate) => candidate !== this.dnsOffset && !this.ips.taken(addressAt(this.cidr, candidate), now, key));
    if (offset !== undefined) {
      const ip = addressAt(this.cidr, offset);
      this.ips.reserve(ip, now, key);
      made.ips.push(ip);
      spec['clusterIP'] = ip;
      spec['clusterIPs'] = [ip];
      spec['ipFamilies'] ??= ['IPv4'];
      spec['ipFamilyPolicy'] ??= 'SingleStack';
      return;
    }
    // Kubernetes' words and code for it (an InternalError, not the client's fault).
    throw internalError('failed to allocate a serviceIP: range is full');
  }

  allocateNodePorts(service: KubeObject, key: string, made: Reservations): void {
    const spec = specOf(service);
    if (spec['type'] !== 'NodePort' && spec['type'] !== 'LoadBalancer') return;
    const ports = Array.isArray(spec['ports']) ? spec['ports'].filter(isObject) : [];
    const now = Date.now();
    ports.forEach((port, i) => {
      const wanted = port['nodePort'];
      if (typeof wanted !== 'number' || wanted <= 0) return;
      if (this.ports.taken(wanted, now, key)) throw alreadyAllocated(service, `spec.ports[${i}].nodePort`, wanted, `provided port is already allocated`);
      if (this.ports.owner(wanted) === key) return;
      this.ports.reserve(wanted, now, key);
      made.ports.push(wanted);
    });
    for (const port of ports) {
      if (typeof port['nodePort'] === 'number' && port['nodePort'] > 0) continue;
      const found = this.portPicker.pick((candidate) => !this.ports.taken(candidate, now, key));
      if (found === undefined) throw badRequest('the node port range is full');
      this.ports.reserve(found, now, key);
      made.ports.push(found);
      port['nodePort'] = found;
    }
  }
}

function alreadyAllocated(service: KubeObject, field: string, value: unknown, message: string) {
  return invalid('Service', service.metadata.name ?? '', '', [
    { field, type: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(value)}: ${message}` },
  ]);
}

const books = new WeakMap<Store, Promise<ServiceAddressBook>>();

function bookFor(store: Store, def: ResourceDefinition, range: ServiceRange): Promise<ServiceAddressBook> {
  let book = books.get(store);
  if (!book) {
    book = ServiceAddressBook.open(store, def, range);
    // A failed first read is tried again by the next create.
    book.catch(() => books.delete(store));
    books.set(store, book);
  }
  return book;
}

/**
 * Gives the Service a cluster IP (and node ports for NodePort and LoadBalancer) that no other
 * Service holds: on create, and on an update that needs new ones (a type changed to NodePort).
 * Addresses the Service itself already holds are its own to keep. `uid` is the Service's (on
 * update, the stored one's). `range` is the server's service CIDR and cluster DNS address; one
 * store's book keeps the range it was opened with.
 */
export async function allocateServiceAddresses(
  service: KubeObject,
  store: Store,
  def: ResourceDefinition,
  range: ServiceRange,
  uid = service.metadata.uid ?? '',
): Promise<() => void> {
  if (!isObject(service['spec'])) service['spec'] = {};
  const book = await bookFor(store, def, range);
  const key = serviceKey(service);
  const made: Reservations = { ips: [], ports: [] };
  const claimant: Claimant = { key, uid, storageKey: keyFor(def, service.metadata.namespace, service.metadata.name ?? '') };
  const undo = () => {
    book.release(made);
    if (!store.shared) return;
    for (const ip of new Set(made.ips)) releaseInBackground(store, 'ip', ip, uid);
    for (const port of new Set(made.ports)) releaseInBackground(store, 'port', port, uid);
  };
  try {
    const requested = { ips: clusterIPsOf(specOf(service)), ports: nodePortsOf(specOf(service)) };
    for (let round = 1; ; round++) {
      book.allocateClusterIP(service, key, made);
      book.allocateNodePorts(service, key, made);
      if (!store.shared || (await claimAll(store, book, service, claimant, made, requested))) break;
      if (round >= CLAIM_ROUNDS) throw badRequest('could not claim free service addresses; try again');
    }
  } catch (error) {
    undo();
    throw error;
  }
  // A write refused later (validation, a conflict) or only tried (dry run) must not keep them:
  // a Service deleted and made again with its address (kubectl apply --force) needs it free.
  return undo;
}

/**
 * Claims in the store what the book picked. Addresses lost to another server are taken off the
 * Service (and off `made`) for the next round to pick again; false then. An address the user
 * asked for by value and another Service holds is refused, as on one server.
 */
async function claimAll(
  store: Store,
  book: ServiceAddressBook,
  service: KubeObject,
  claimant: Claimant,
  made: Reservations,
  requested: Reservations,
): Promise<boolean> {
  const spec = specOf(service);
  let complete = true;
  for (const ip of [...new Set(made.ips)]) {
    if (await claimAddress(store, 'ip', ip, claimant, (s) => clusterIPsOf(specOf(s)).includes(ip), RESERVATION_MS)) continue;
    if (requested.ips.includes(ip)) throw alreadyAllocated(service, 'spec.clusterIPs', ip, `failed to allocate IP ${ip}: provided IP is already allocated`);
    book.heldElsewhere('ip', ip);
    made.ips = made.ips.filter((other) => other !== ip);
    delete spec['clusterIP'];
    delete spec['clusterIPs'];
    complete = false;
  }
  for (const port of [...new Set(made.ports)]) {
    if (await claimAddress(store, 'port', port, claimant, (s) => nodePortsOf(specOf(s)).includes(port), RESERVATION_MS)) continue;
    if (requested.ports.includes(port)) throw alreadyAllocated(service, 'spec.ports.nodePort', port, 'provided port is already allocated');
    book.heldElsewhere('port', port);
    made.ports = made.ports.filter((other) => other !== port);
    for (const entry of Array.isArray(spec['ports']) ? spec['ports'].filter(isObject) : []) if (entry['nodePort'] === port) delete entry['nodePort'];
    complete = false;
  }
  return complete;
}

/** Stops following the store's Services (the server is closing). */
export function closeServiceAddresses(store: Store): void {
  const book = books.get(store);
  books.delete(store);
  void book?.then(
    (b) => b.close(),
    () => undefined,
  );
}
