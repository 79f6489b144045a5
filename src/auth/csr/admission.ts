// Who may approve and who may sign, as Kubernetes' CertificateApproval, CertificateSigning and
// CertificateSubjectRestriction admission plugins: writing the Approved or Denied condition needs
// `approve`, and writing status.certificate needs `sign`, on the signer (resource `signers` of
// certificates.k8s.io, named by the signerName or `<domain>/*`) besides update on the
// subresource; and nobody asks kube-apiserver-client for a system:masters certificate. The
// server's own writes (the certificate controller) carry no user and pass.
import type { AdmissionRequest, ValidatingAdmission } from '../../apiserver/admission/validating-admission.js';
import { forbidden } from '../../apiserver/errors.js';
import type { KubeObject } from '../../api/meta.js';
import { APPROVED, DENIED, conditionsOf, decodeBytes } from '../../api/validation/csr-validation.js';
import { semanticEqual } from '../../util/json-equal.js';
import { MASTERS_GROUP } from '../components.js';
import { parseCertificateRequest } from '../pki/certificates.js';
import type { Authorizer, UserInfo } from '../types.js';
import { KUBE_APISERVER_CLIENT } from './signers.js';

const GROUP = 'certificates.k8s.io';

function signerOf(csr: KubeObject): string {
  const spec = (csr['spec'] ?? {}) as { signerName?: unknown };
  return typeof spec.signerName === 'string' ? spec.signerName : '';
}

/** `verb` on the signer by its name, or on every signer of its domain (`example.com/*`). */
function mayUseSigner(authorizer: Authorizer, user: UserInfo, verb: string, signerName: string): boolean {
  const domainWildcard = `${signerName.split('/')[0]}/*`;
  return [signerName, domainWildcard].some(
    (name) =>
      authorizer.authorize({
        user,
        verb,
        resourceRequest: true,
        apiGroup: GROUP,
        apiVersion: '*',
        resource: 'signers',
        subresource: '',
        namespace: '',
        name,
        path: '',
      }).allowed,
  );
}

const approvalOf = (csr: KubeObject) => conditionsOf(csr).filter((c) => c['type'] === APPROVED || c['type'] === DENIED);

export function certificateAdmission(authorizer: Authorizer): ValidatingAdmission {
  const validates = ({ def, user }: AdmissionRequest) => def.group === GROUP && def.kind === 'CertificateSigningRequest' && user !== undefined;
  return {
    validates,
    async validate(request) {
      const { def, object, old, user } = request;
      if (!validates(request) || !user) return [];
      if (user.groups.includes(MASTERS_GROUP)) return [];
      const name = object.metadata.name ?? '';
      const signerName = signerOf(object);
      const refuse = (message: string): never => {
        throw forbidden(`certificatesigningrequests.${GROUP} ${JSON.stringify(name)} is forbidden: ${message}`, { group: GROUP, plural: def.plural, name });
      };
      if (!old) {
        if (signerName !== KUBE_APISERVER_CLIENT) return [];
        let organizations: string[] = [];
        try {
          organizations = parseCertificateRequest(decodeBytes((object['spec'] as Record<string, unknown>)['request']) ?? '').subject.organizations ?? [];
        } catch {
          return []; // validation has already refused it
        }
        if (organizations.includes(MASTERS_GROUP)) refuse(`use of ${KUBE_APISERVER_CLIENT} signer with ${MASTERS_GROUP} group is not allowed`);
        return [];
      }
      if (request.subresource === 'approval' && !semanticEqual(approvalOf(object), approvalOf(old)) && !mayUseSigner(authorizer, user, 'approve', signerName)) {
        refuse(`user not permitted to approve requests with signerName ${JSON.stringify(signerName)}`);
      }
      const certificate = (object['status'] as { certificate?: unknown } | undefined)?.certificate;
      const oldCertificate = (old['status'] as { certificate?: unknown } | undefined)?.certificate;
      if (request.subresource === 'status' && certificate !== oldCertificate && !mayUseSigner(authorizer, user, 'sign', signerName)) {
        refuse(`user not permitted to sign requests with signerName ${JSON.stringify(signerName)}`);
      }
      return [];
    },
  };
}
