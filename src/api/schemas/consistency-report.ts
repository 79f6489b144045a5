// drover.dev/v1 ConsistencyReport: one round of the data checker (the original scheduler's
// DataCheckMgr) — what it found wrong between the stored objects, the agents and the store
// itself, and what it repaired. Creating one with an empty status asks the leading server for
// a round now (`drover check`); the checker also writes one per scheduled round.
import { bool, enumStr, field, int32, int64, list, named, str, struct, time } from './builders.js';
import { kindSchema } from './meta.js';

export const REPORT_PHASES = ['Running', 'Completed', 'Skipped', 'Failed'] as const;
export const REPORT_TRIGGERS = ['Scheduled', 'OnDemand'] as const;
export const REPAIR_STATES = ['Repaired', 'RepairFailed', 'NotRepaired', 'Resolved', 'NoRepair'] as const;

const ReportObjectReference = named(
  'dev.drover.v1.ReportObjectReference',
  struct('The object a finding is about.', {
    apiVersion: str('API version of the object.'),
    kind: str('Kind of the object.'),
    namespace: str('Namespace of the object; empty for cluster-scoped objects.'),
    name: str('Name of the object.'),
    uid: str('UID of the object.'),
  }),
);

const ConsistencyFinding = named(
  'dev.drover.v1.ConsistencyFinding',
  struct(
    'One inconsistency the checker found.',
    {
      kind: str('What is wrong, e.g. PodOnMissingNode, LostPod, DanglingOwnerReference, EndpointsMismatch.'),
      object: field(ReportObjectReference, 'The object at fault, when there is one.'),
      message: str('What was found.'),
      repair: str('What the repair does (empty when there is none).'),
      repairState: enumStr(
        'Repaired, RepairFailed, NotRepaired (repairs that change objects were off), Resolved (gone by the time of the repair) or NoRepair.',
        REPAIR_STATES,
      ),
    },
    ['kind', 'message'],
  ),
);

const ConsistencyReportSpec = named(
  'dev.drover.v1.ConsistencyReportSpec',
  struct('How the round runs.', {
    repair: bool('Also run the repairs that change objects (deleting, marking lost). Repairs that only re-trigger a controller always run.'),
    trigger: enumStr("Scheduled (the checker's interval) or OnDemand (created by a user, e.g. `drover check`).", REPORT_TRIGGERS),
  }),
);

const ConsistencyReportStatus = named(
  'dev.drover.v1.ConsistencyReportStatus',
  struct('The outcome of the round.', {
    phase: enumStr('Running, then Completed, Skipped (the store or most agents could not be seen) or Failed.', REPORT_PHASES),
    checker: str('The server (identity of the data checker lease holder) that ran the round.'),
    startTime: time('When the round started.'),
    completionTime: time('When the round ended.'),
    message: str('Why the round was skipped or failed.'),
    findingCount: int32('How many findings the round had.'),
    repairedCount: int32('How many findings were repaired.'),
    findings: list('The findings (the first 500).', ConsistencyFinding),
    storeRevision: int64('The store revision the store check read at.'),
    storeHash: str('FNV-1a 64-bit hash over every stored key and its revision at storeRevision, as hex.'),
  }),
);

export const ConsistencyReportSchema = kindSchema(
  { group: 'drover.dev', version: 'v1', kind: 'ConsistencyReport' },
  'One round of the data checker: the inconsistencies found between stored objects, node agents and the store, and the repairs made.',
  {
    spec: field(ConsistencyReportSpec, 'How the round runs.'),
    status: field(ConsistencyReportStatus, 'The outcome of the round.'),
  },
);
