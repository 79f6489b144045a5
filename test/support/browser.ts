// Debian's Chromium (/usr/bin/chromium, installed by scripts/ensure-chromium.sh), driven by
// playwright-core. Nothing is downloaded, and nothing leaves the machine: background networking
// is off and the page talks only to the server on 127.0.0.1.
//
// The server's certificate is signed by the cluster's own CA, which Chromium does not know.
// Rather than ignoring certificate errors wholesale, the browser is told the one key to accept:
// --ignore-certificate-errors-spki-list takes the base64 SHA-256 of the serving certificate's
// SubjectPublicKeyInfo, read from the very server the test started. Any other certificate (a
// different key) still fails, so the page is verified against the key we expect.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { X509Certificate, createHash } from 'node:crypto';
import { connect } from 'node:tls';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export function requireChromium(): void {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: run bash scripts/ensure-chromium.sh (npm test's pretest does)`);
}

/** base64(SHA-256(SPKI)) of the certificate the server at `url` presents, verified against the cluster CA first. */
export async function servingKeyPin(url: string, ca: Buffer | string): Promise<string> {
  const { hostname, port } = new URL(url);
  const raw = await new Promise<Buffer>((resolve, reject) => {
    // Node checks the chain and the address here, so only a certificate the cluster CA signed
    // for this address gets pinned; nothing is sent on this connection.
    const socket = connect({ host: hostname, port: Number(port), ca }, () => {
      const certificate = socket.getPeerCertificate();
      socket.destroy();
      resolve(certificate.raw);
    });
    socket.once('error', reject);
  });
  const spki = new X509Certificate(raw).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

export async function launchChromium(serverUrl: string, ca: Buffer | string): Promise<Browser> {
  requireChromium();
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-domain-reliability',
      `--ignore-certificate-errors-spki-list=${await servingKeyPin(serverUrl, ca)}`,
    ],
  });
}

/**
 * The address that signs the admin in, from what `drover up` printed to a pipe (the address and
 * the token's file: it prints the token itself only on a terminal) and that file.
 */
export async function signInAddress(output: string, dataDir: string): Promise<string> {
  const address = /^dashboard: (https:\/\/\S+\/ui\/) \(sign in with the admin token in (\S+); keep it private\)$/m.exec(output);
  if (!address) throw new Error(`drover printed no dashboard address:\n${output}`);
  if (address[2] !== join(dataDir, 'dashboard-token')) throw new Error(`the token is not in the data dir: ${address[2]}`);
  const token = (await readFile(address[2]!, 'utf8')).trim();
  return `${address[1]}#token=${encodeURIComponent(token)}`;
}

/**
 * Opens `url` in `page`. Chromium aborts a navigation with ERR_NETWORK_CHANGED when the machine's
 * network interfaces change while its connection is being made (a fresh browser's first page
 * fails so whenever a veth pair comes and goes meanwhile), and Docker adds and removes one for
 * every container the other test files (and the agents' sandbox pools) start and stop: such a
 * navigation never reached the server, so it is made again. The dashboard's own requests retry
 * the same way (ui/src/api/client.ts).
 *
 * The cause is read from the navigation request's failure, not from goto's message alone: when
 * Chromium commits its error page before Playwright settles the navigation, goto says only that it
 * "is interrupted by another navigation to chrome-error://chromewebdata/" (CI, session 22; about
 * one cut in a hundred here), which names no cause. A navigation that failed without a known cause
 * is made again too. Whatever still fails after five tries, or fails with another cause at once,
 * is thrown with its cause.
 */
export async function openPage(page: Page, url: string): Promise<void> {
  const target = url.split('#')[0]!;
  const isTarget = (request: Request) => request.isNavigationRequest() && request.url() === target;
  for (let attempt = 1; ; attempt++) {
    let failure: string | undefined;
    const onFailed = (request: Request) => {
      if (isTarget(request)) failure = request.failure()?.errorText;
    };
    page.on('requestfailed', onFailed);
    try {
      await page.goto(url);
      return;
    } catch (error) {
      // The request's failure may be reported just after goto gave up on the error page.
      failure ??= (await page.waitForEvent('requestfailed', { predicate: isTarget, timeout: 2_000 }).catch(() => undefined))?.failure()?.errorText;
      const cause = failure ?? /net::ERR_[A-Z_]+/.exec(String(error))?.[0];
      if ((cause !== undefined && cause !== 'net::ERR_NETWORK_CHANGED') || attempt >= 5) {
        throw new Error(`opening ${target} failed (${cause ?? 'no cause reported'}, try ${attempt}): ${String(error)}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      page.off('requestfailed', onFailed);
    }
  }
}
