// coordination.k8s.io/v1 Lease, used for node heartbeats and leader election.
import { field, int32, microTime, named, str, struct } from './builders.js';
import { kindSchema } from './meta.js';

const LeaseSpec = named(
  'io.k8s.api.coordination.v1.LeaseSpec',
  struct('Specification of a lease.', {
    holderIdentity: str('Identity of the current holder of the lease.'),
    leaseDurationSeconds: int32('Seconds candidates must wait after the last renewal before taking the lease over.'),
    acquireTime: microTime('When the current holder acquired the lease.'),
    renewTime: microTime('When the current holder last renewed the lease.'),
    leaseTransitions: int32('Number of times the lease changed holders.'),
    strategy: str('Strategy for picking a leader in coordinated leader election, e.g. OldestEmulationVersion.'),
    preferredHolder: str('Holder that should take over the lease (coordinated leader election).'),
  }),
);

export const LeaseSchema = kindSchema(
  { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' },
  'A lease held by one identity at a time: used for node heartbeats and for leader election between replicas of a component.',
  { spec: field(LeaseSpec, 'Specification of the lease.') },
);
