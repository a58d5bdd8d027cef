// Type-checks the four TypeScript projects, two at a time (two cores), and fails if any fails.
import { spawn } from 'node:child_process';

const projects = ['apps/api', 'apps/web', 'packages/contract', 'e2e'];
const run = (project) => new Promise((resolve) => {
  const child = spawn(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project, '--noEmit'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  child.on('exit', (code) => resolve({ project, code, out }));
});

const queue = [...projects];
const results = [];
await Promise.all([0, 1].map(async () => {
  while (queue.length) results.push(await run(queue.shift()));
}));
let failed = false;
for (const r of results) {
  if (r.code !== 0) {
    failed = true;
    process.stderr.write(`tsc -p ${r.project} failed:\n${r.out}\n`);
  }
}
if (failed) process.exit(1);
console.log(`typecheck: ${projects.join(', ')} ok`);
