// drover.dev/v1 Transaction: one operation a controller carries out on a workload (the
// original scheduler's deployment/transaction), with a life period after which it times out.
import { enumStr, field, int32, named, str, struct, time } from './builders.js';
import { kindSchema } from './meta.js';
import { TRANSACTION_OPERATIONS, TRANSACTION_PHASES } from '../transaction-operations.js';

const TransactionTarget = named(
  'dev.drover.v1.TransactionTarget',
  struct(
    'The workload a transaction operates on.',
    {
      apiVersion: str('API version of the target.'),
      kind: str('Kind of the target, e.g. Deployment.'),
      name: str("Name of the target, in the transaction's namespace."),
      uid: str('UID of the target.'),
    },
    ['kind', 'name'],
  ),
);

const TransactionSpec = named(
  'dev.drover.v1.TransactionSpec',
  struct(
    'What a transaction does, to what, and how long it may take.',
    {
      target: field(TransactionTarget, 'The workload operated on.'),
      operation: enumStr(
        'The operation: launch, scale, update (one rolling step), delete, reschedule or repair (by the data checker).',
        TRANSACTION_OPERATIONS,
      ),
      reason: str('Why the operation happens.'),
      lifePeriodSeconds: int32(
        'Seconds the transaction may run before it is marked TimedOut. Defaults per operation: launch 1800, scale 1800, update 300, delete 480, reschedule 86400, repair 300.',
      ),
      delaySeconds: int32('Seconds the operation waits before it starts (its life period runs from then).'),
      user: str("The user whose change to the target caused the operation: the target's drover.dev/changed-by annotation, which the API server keeps."),
    },
    ['target', 'operation'],
  ),
);

const TransactionStatus = named(
  'dev.drover.v1.TransactionStatus',
  struct('How far a transaction has got.', {
    phase: enumStr('Running, then Succeeded, Failed or TimedOut.', TRANSACTION_PHASES),
    startTime: time('When the transaction started.'),
    completionTime: time('When the transaction ended.'),
    progress: str('Units of work done out of the total, e.g. 3/5.'),
    message: str('A human-readable account of the outcome or the current step.'),
  }),
);

export const TransactionSchema = kindSchema(
  { group: 'drover.dev', version: 'v1', kind: 'Transaction' },
  'An operation a controller carries out on a workload — launch, scale, rolling update step, delete or reschedule — recorded with its phase, progress and deadline.',
  {
    spec: field(TransactionSpec, 'What the transaction does.'),
    status: field(TransactionStatus, 'How far the transaction has got.'),
  },
);
