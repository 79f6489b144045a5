// Renewing the agent's client certificate while it runs: at 80% of its lifetime the agent asks
// for a new one (authenticated by the current one), writes it to its data dir and hands it to
// its API client, whose new connections use it (ApiClient.setTls); open connections keep the
// old one, still valid for the remaining 20%. A failed renewal is tried again a minute later.
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

export function startCertificateRotation(api: ApiClient, files: PkiFiles, options: Pick<JoinOptions, 'servers' | 'nodeName' | 'dataDir' | 'logger'>): CertificateRotation {
  let current = files;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const renewAt = (certPem: string) => {
    const { notBefore, notAfter } = validity(certPem);
    return notBefore + (notAfter - notBefore) * (1 - RENEW_AT_LIFETIME_LEFT);
  };
  const schedule = (at: number) => {
    if (stopped) return;
    const delay = Math.max(0, at - Date.now());
    timer = setTimeout(() => (Date.now() >= at ? void renew() : schedule(at)), Math.min(delay, MAX_TIMER_MS));
    timer.unref();
  };
  const renew = async () => {
    try {
      current = await renewCertificate(options, current, api);
      if (stopped) return;
      api.setTls(tlsOf(current));
      schedule(renewAt(current.certPem));
    } catch (error) {
      (options.logger as Logger).warn('renewing the client certificate failed; trying again in a minute', { error });
      schedule(Date.now() + RETRY_MS);
    }
  };
  schedule(renewAt(current.certPem));
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
