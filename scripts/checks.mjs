// npm test's static checks (and npm run typecheck's, with --types): the four TypeScript projects, ESLint and the import-cycle check, two at a time
// (two cores), longest first, and fails if any fails. Run one after another, the lint left a core idle for
// its 20 s (issue 26). Each check's output is printed whole when it ends.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';

// --cached (test:fast): TypeScript's incremental build information and ESLint's cache, both under
// node_modules/.cache, so a second run checks again only what changed since. TypeScript's record follows
// every import, so it finds what a change breaks in other files. ESLint's cache can miss what a change
// means for another file (a rule that reads types across files), so npm test runs both without a cache
// (docs/decisions/025).
const cached = process.argv.includes('--cached');
// The type checks run TypeScript 7, the native compiler (package alias `tsgo`): the same checks as 5.9 in about a
// fifth of the time (docs/decisions/037). TypeScript 5.9 stays installed as `typescript` for the tools that
// need its JavaScript API (typescript-eslint, dpdm) and for editors.
const tsc = (project) => ({
  name: `tsc -p ${project}${cached ? ' (incremental)' : ''}`,
  cmd: [process.execPath, 'node_modules/tsgo/bin/tsc', '-p', project, '--noEmit', ...(cached ? ['--incremental', '--tsBuildInfoFile', `node_modules/.cache/tsc/${project.replaceAll('/', '-')}.tsbuildinfo`] : [])],
});
const npmRun = (script) => ({ name: `npm run ${script}`, cmd: ['npm', 'run', '--silent', script] });

// --cached: the import-cycle check (dpdm, about 12 s here, the longest check of a warm run) is skipped when no
// file git knows of (tracked or new, not ignored) has changed since it last passed: its verdict depends on those
// files only. The record is the hash of their names and contents.
const cyclesRecord = 'node_modules/.cache/lint-cycles.sha256';
function sourcesHash() {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).split('\0').filter(Boolean).sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(file).update('\0');
    try { hash.update(fs.readFileSync(file)); } catch { hash.update('(missing)'); }
    hash.update('\0');
  }
  return hash.digest('hex');
}
function cyclesCheck() {
  const check = npmRun('lint:cycles');
  if (!cached) return check;
  let hash = null;
  try { hash = sourcesHash(); } catch { return check; }
  if (fs.existsSync(cyclesRecord) && fs.readFileSync(cyclesRecord, 'utf8') === hash) return { name: `${check.name} (unchanged since it passed)`, skip: true };
  return { ...check, onPass: () => { fs.mkdirSync('node_modules/.cache', { recursive: true }); fs.writeFileSync(cyclesRecord, hash); } };
}
// Longest first, so the two lanes end together.
const eslintArgs = cached ? ['--cache', '--cache-location', 'node_modules/.cache/eslint/'] : [];
const all = [{ name: `eslint .${eslintArgs.length ? ' (cached)' : ''}`, cmd: [process.execPath, 'node_modules/eslint/bin/eslint.js', ...eslintArgs, '.'] }, tsc('apps/api'), cyclesCheck(), tsc('apps/web'), tsc('e2e'), tsc('packages/contract')];
// --types (npm run typecheck): the four TypeScript projects only.
const checks = process.argv.includes('--types') ? all.filter((c) => c.name.startsWith('tsc')) : all;

const run = ({ name, cmd, skip }) => new Promise((resolve) => {
  if (skip) return resolve({ name, code: 0, out: '', s: 0 });
  const started = Date.now();
  const child = spawn(cmd[0], cmd.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  child.on('error', (err) => resolve({ name, code: 1, out: String(err), s: 0 }));
  child.on('exit', (code) => resolve({ name, code, out, s: (Date.now() - started) / 1000 }));
});

const queue = [...checks];
let failed = false;
await Promise.all([0, 1].map(async () => {
  while (queue.length) {
    const check = queue.shift();
    const r = await run(check);
    if (r.code !== 0) failed = true;
    else check.onPass?.();
    process.stdout.write(`${r.code === 0 ? 'ok  ' : 'FAIL'} ${r.name} (${r.s.toFixed(1)} s)\n${r.code === 0 ? '' : r.out}`);
  }
}));
if (failed) process.exit(1);
