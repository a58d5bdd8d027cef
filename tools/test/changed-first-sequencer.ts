import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * `npm run test:fast` (issue 26): test files next to what changed run first, so a broken change fails in
 * the first seconds. "Changed" is the work tree against HEAD plus untracked files; a test file counts as
 * related when it changed itself or shares a folder with a changed file. The rest keep Vitest's order
 * (failed last time first, then the longest).
 */
function changedFolders(root: string): Set<string> {
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };
  const files = [...git('diff', '--name-only', 'HEAD'), ...git('ls-files', '--others', '--exclude-standard')];
  return new Set(files.map((f) => path.dirname(path.resolve(root, f))));
}

export default class ChangedFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const folders = changedFolders(this.ctx.config.root);
    if (folders.size === 0) return sorted;
    const first = sorted.filter((f) => folders.has(path.dirname(f.moduleId)));
    return [...first, ...sorted.filter((f) => !first.includes(f))];
  }
}
