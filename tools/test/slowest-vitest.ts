import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** Prints the ten slowest test files after a run, so the next slow one is seen when it appears (issue 26). */
export default class SlowestFiles implements Reporter {
  private printed = new WeakSet<object>();
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    // Registered once, but called once per project with the same list.
    if (this.printed.has(modules)) return;
    this.printed.add(modules);
    const rows = modules
      .map((m) => {
        const d = m.diagnostic();
        return { file: path.relative(process.cwd(), m.moduleId), ms: d.duration + d.setupDuration + d.collectDuration + d.prepareDuration };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    if (rows.length < 2) return;
    const lines = rows.map((r) => `${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.file}`);
    process.stdout.write(`\nThe 10 slowest test files (setup, import and tests):\n${lines.join('\n')}\n`);
  }
}
