// npm run bench — every performance target of ../shared/quality/performance.md that has a script, as
// shipped (the compiled server; `npm run build` first): hot routes and public data against a raw
// reference, live events at customer scale, start time, Lighthouse on the public pages. Each part prints
// its figures with the load average; the exit code is 1 if any part missed a target.
import { spawnSync } from 'node:child_process';

const parts = [
  ['Routen, öffentliche Daten, Login-Flut', ['--import', 'tsx', 'apps/api/bench/bench.ts']],
  ['Live-Ereignisse', ['--import', 'tsx', 'apps/api/bench/events-bench.ts']],
  ['Start', ['--import', 'tsx', 'apps/api/bench/start-bench.ts']],
  ['Lighthouse', ['scripts/lighthouse.mjs']],
];
const missed = [];
for (const [name, args] of parts) {
  console.log(`\n══ ${name} ══`);
  const run = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, BENCH_REBUILD: '0' } });
  if (run.status !== 0) missed.push(name);
}
console.log(`\n${missed.length ? `Ziele verfehlt in: ${missed.join(', ')}` : 'Alle Ziele erreicht.'}`);
process.exit(missed.length ? 1 : 0);
