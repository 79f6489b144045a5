// The CertificateSigningRequest printer, as Kubernetes' printers.go has it: who asked which
// signer for how long, and where the request stands (Pending, Approved, Denied; then Failed or
// Issued), e.g. `Approved,Issued`.
import type { KubeObject } from '../meta.js';
import type { TablePrinter } from '../resource.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { age, humanDuration } from './format.js';
import { at, listAt, stringAt } from './read.js';

export function csrCondition(csr: KubeObject): string {
  const types = new Set(listAt(csr, 'status', 'conditions').map((condition) => stringAt(condition, 'type')));
  // In order of precedence, as kubectl prints it.
  let status = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) status += ',Failed';
  if (stringAt(csr, 'status', 'certificate') !== '') status += ',Issued';
  return status;
}

export const csrPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    AGE_COLUMN,
    column('SignerName', 'string', 'The signer the request asks to sign it.'),
    column('Requestor', 'string', 'Name of requestor'),
    column('RequestedDuration', 'string', 'Requested validity of the issued certificate.'),
    column('Condition', 'string', 'State of the signing request'),
  ],
  row: (csr, now) => {
    const seconds = at(csr, 'spec', 'expirationSeconds');
    return [
      csr.metadata.name ?? '',
      age(csr, now),
      stringAt(csr, 'spec', 'signerName') || '<none>',
      stringAt(csr, 'spec', 'username'),
      typeof seconds === 'number' ? humanDuration(seconds * 1000) : '<none>',
      csrCondition(csr),
    ];
  },
};
