// The cluster DNS server (what CoreDNS's kubernetes plugin is to a Kubernetes cluster): it
// answers for the cluster domain only, from the agent's ServiceDirectory, and forwards nothing.
//
//   const dns = await startDnsServer({ host: '10.0.0.1', port: 53, view: directory, domain: 'cluster.local', logger });
//   dns.stats.queries; await dns.close();
//
// Files: records.ts (the answers, per question), wire.ts (a message in, a message out),
// encode.ts (compressed responses), server.ts (UDP and TCP sockets), tcp-framing.ts.
export { startDnsServer, type DnsServer, type DnsServerOptions, type DnsServerStats } from './server.js';
export { answer, RECORD_TTL, type DnsAnswer, type DnsView, type Rcode } from './records.js';
export { handleMessage, type Reply } from './wire.js';
