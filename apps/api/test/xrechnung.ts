import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const xrechnungValidator = path.join(fileURLToPath(new URL('../../../', import.meta.url)), 'tools/xrechnung/validate');

export interface ValidationResult { exitCode: number; output: string; lastLine: string }

/**
 * The official XRechnung rules on many files in one run (`tools/xrechnung/validate --batch`): Java starts
 * and the Schematron stylesheets compile once, instead of about 2.5 CPU-seconds per invoice (issue 26).
 * Each file gets the report the single-file mode prints, and exit code 0 (PASS) or 1 (FAIL). The
 * validator's exit 2 (tooling missing, bad usage) throws, so it never looks like a verdict.
 */
export async function validateFiles(files: readonly string[]): Promise<Map<string, ValidationResult>> {
  let stdout = '';
  try {
    ({ stdout } = await run(xrechnungValidator, ['--batch', ...files.map((f) => path.resolve(f))], { maxBuffer: 50 * 1024 * 1024 }));
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string };
    if (failed.code !== 1) throw new Error(`tools/xrechnung/validate could not run (exit ${String(failed.code)}): ${failed.stderr?.trim() || failed.stdout?.trim() || ''}`);
    stdout = failed.stdout ?? '';
  }
  const reports = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const line of stdout.split('\n')) {
    if (line.startsWith('== ')) reports.set(line.slice(3), (current = []));
    else current?.push(line);
  }
  const results = new Map<string, ValidationResult>();
  for (const file of files) {
    const lines = reports.get(path.resolve(file));
    if (!lines) throw new Error(`tools/xrechnung/validate --batch gave no report for ${file}`);
    const output = lines.join('\n').trim();
    const lastLine = output.split('\n').at(-1) ?? '';
    results.set(file, { exitCode: lastLine.startsWith('PASS') ? 0 : 1, output, lastLine });
  }
  return results;
}
