// Renewing a certificate while the agent runs: at 80% of its lifetime the agent asks for a new
// one and hands it on. For its client certificate (startCertificateRotation) the new one is
// written to the data dir and given to its API client, whose new connections use it
// (ApiClient.setTls); open connections keep the old one, still valid for the remaining 20%.
// A failed renewal is tried again a minute later.
import type { ApiClient, Logger } from '../../client/index.js';
import { validity } from '../../auth/pki/certificates.js';
import { RENEW_AT_LIFETIME_LEFT, renewCertificate, tlsOf, type JoinOptions } from './join.js';
import type { PkiFiles } from './pki-files.js';

const RETRY_MS = 60_000;
/** setTimeout's longest delay (about 24.8 days); longer waits are taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface CertificateRotation {
  stop(): void;
}

/** Calls `renew` at 80% of the lifetime of `certPem`, then of each certificate it returns. */
export function startRotation(certPem: string, renew: () => Promise<string>, logger: Logger, what: string): CertificateRotation {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const renewAt = (pem: string) => {
    const { notBefore, notAfter } = validity(pem);
    return notBefore + (notAfter - notBefore) * (1 - RENEW_AT_LIFETIME_LEFT);
  };
  const schedule = (at: number) => {
    if (stopped) return;
    const delay = Math.max(0, at - Date.now());
    timer = setTimeout(() => (Date.now() >= at ? void attempt() : schedule(at)), Math.min(delay, MAX_TIMER_MS));
    timer.unref();
  };
  const attempt = async () => {
    try {
      const renewed = await renew();
      schedule(renewAt(renewed));
    } catch (error) {
      logger.warn(`renewing the ${what} failed; trying again in a minute`, { error });
      schedule(Date.now() + RETRY_MS);
    }
  };
  schedule(renewAt(certPem));
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/** The client certificate's rotation: renewed files go to the data dir and to `api`. */
export function startCertificateRotation(
  api: ApiClient,
  files: PkiFiles,
  options: Pick<JoinOptions, 'servers' | 'nodeName' | 'dataDir' | 'logger'>,
): CertificateRotation {
  let current = files;
  return startRotation(
    files.certPem,
    async () => {
      current = await renewCertificate(options, current, api);
      api.setTls(tlsOf(current));
      return current.certPem;
    },
    options.logger,
    'client certificate',
  );
}
