// coordination.k8s.io/v1 Lease (api/coordination/v1/generated.proto).
import { objectMeta } from './meta-v1.js';
import { i32, message, microTime, msg, PTR, str } from './schema.js';

export const lease = message('Lease', {
  1: msg('metadata', objectMeta),
  2: msg(
    'spec',
    message('LeaseSpec', {
      1: str('holderIdentity', PTR),
      2: i32('leaseDurationSeconds', PTR),
      3: microTime('acquireTime'),
      4: microTime('renewTime'),
      5: i32('leaseTransitions', PTR),
      6: str('strategy', PTR),
      7: str('preferredHolder', PTR),
    }),
  ),
});
