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
import { chromium, type Browser, type Page } from 'playwright-core';

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
 * Opens `url` in `page`. Chromium aborts a navigation in flight with ERR_NETWORK_CHANGED whenever
 * the machine's network interfaces change, and Docker adds and removes one for every container
 * the other test files (and the agents' sandbox pools) start and stop: such a navigation never
 * reached the server, so it is made again. The dashboard's own requests retry the same way
 * (ui/src/api/client.ts); any other failure is the test's.
 */
export async function openPage(page: Page, url: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.goto(url);
      return;
    } catch (error) {
      if (attempt >= 5 || !String(error).includes('net::ERR_NETWORK_CHANGED')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
