import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Prints the ten slowest journeys after a run, so the next slow one is seen when it appears (issue 26). */
export default class SlowestJourneys implements Reporter {
  private rows: { title: string; ms: number }[] = [];

  onTestEnd(test: TestCase, result: TestResult) {
    this.rows.push({ title: `${test.location.file.split('/').pop()}:${test.location.line} ${test.title}`, ms: result.duration });
  }

  onEnd(_result: FullResult) {
    if (this.rows.length < 2) return;
    const top = [...this.rows].sort((a, b) => b.ms - a.ms).slice(0, 10);
    const lines = top.map((r) => `${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.title.slice(0, 140)}`);
    process.stdout.write(`\nThe 10 slowest journeys:\n${lines.join('\n')}\n`);
  }

  printsToStdio() {
    return false;
  }
}
