// The cluster DNS server (what CoreDNS's kubernetes plugin is to a Kubernetes cluster).
export { startDnsServer, type DnsServer, type DnsServerOptions, type DnsServerStats } from './server.js';
export { answer, RECORD_TTL, type DnsAnswer, type DnsView, type Rcode } from './records.js';
export { handleMessage, type Reply } from './wire.js';
