import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built `lemma` entry point. */
export const CLI_BIN = fileURLToPath(new URL('../../cli/dist/main.js', import.meta.url));

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `lemma <args>` without a terminal (pipes), with only the given environment on top of a
 * clean one (no LEMMA_* leaking in from the developer's shell), and NO_COLOR unless overridden.
 */
export function runCli(args: string[], env: Record<string, string> = {}, input?: string): Promise<CliResult> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LEMMA_')));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env: { ...base, NO_COLOR: '1', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}
