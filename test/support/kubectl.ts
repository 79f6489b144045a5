// Runs the real kubectl binary against a Drover server. A missing kubectl fails loudly: these
// tests exist to prove that kubectl itself works against Drover.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const KUBECTL = process.env['KUBECTL'] ?? '/usr/bin/kubectl';

export function requireKubectl(): void {
  if (!existsSync(KUBECTL)) throw new Error(`kubectl not found at ${KUBECTL}: the end-to-end tests need the real kubectl (v1.32)`);
  const version = spawnSync(KUBECTL, ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  if (version.status !== 0) throw new Error(`kubectl at ${KUBECTL} does not run: ${version.stderr}`);
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface KubectlOptions {
  input?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** Runs kubectl and resolves with its exit code and output (never rejects on a non-zero exit). */
export function kubectlRaw(kubeconfig: string, args: string[], options: KubectlOptions = {}): Promise<KubectlResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      KUBECTL,
      ['--kubeconfig', kubeconfig, ...args],
      { env: { ...process.env, ...options.env }, timeout: options.timeoutMs ?? 30_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}

/** Runs kubectl and returns stdout; a non-zero exit throws with everything kubectl printed. */
export async function kubectl(kubeconfig: string, args: string[], options: KubectlOptions = {}): Promise<string> {
  const result = await kubectlRaw(kubeconfig, args, options);
  if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${result.code}\n${result.stderr}${result.stdout}`);
  return result.stdout;
}
