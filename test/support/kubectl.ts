// Runs the real kubectl binary against a Drover server. A missing kubectl fails loudly: these
// tests exist to prove that kubectl itself works against Drover.
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const KUBECTL = process.env['KUBECTL'] ?? '/usr/bin/kubectl';

export function requireKubectl(): void {
  if (!existsSync(KUBECTL)) throw new Error(`kubectl not found at ${KUBECTL}: the end-to-end tests need the real kubectl (v1.32)`);
  const version = spawnSync(KUBECTL, ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  if (version.status !== 0) throw new Error(`kubectl at ${KUBECTL} does not run: ${version.stderr}`);
}

let cacheRoot: string | undefined;

/**
 * The leading arguments of every kubectl run against one cluster: its kubeconfig and a discovery
 * cache of its own. kubectl keeps discovery under ~/.kube/cache by host and port for six hours,
 * and test clusters reuse ports: a later cluster on a port once held by one with a custom
 * resource in the `all` category made `kubectl get all` expand to a resource that cluster never
 * had ("the server doesn't have a resource type widgets"). A cache per kubeconfig, in a folder
 * of this process removed at its exit, keeps each cluster's discovery to itself. An explicit
 * `--cache-dir` later in the arguments still wins (kubectl takes a flag's last value).
 */
export function kubectlArgs(kubeconfig: string, args: string[]): string[] {
  if (cacheRoot === undefined) {
    const root = mkdtempSync(join(tmpdir(), 'drover-kubectl-cache-'));
    process.once('exit', () => rmSync(root, { recursive: true, force: true }));
    cacheRoot = root;
  }
  const perKubeconfig = createHash('sha256').update(kubeconfig).digest('hex').slice(0, 16);
  return ['--kubeconfig', kubeconfig, '--cache-dir', join(cacheRoot, perKubeconfig), ...args];
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
      kubectlArgs(kubeconfig, args),
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
