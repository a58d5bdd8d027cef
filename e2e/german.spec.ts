import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { findInText, listFiles, textOfHtml } from '../tools/test/german-texts.ts';

// The pages `npm run build` prerendered, from the folder the server under test serves (WEB_DIST, as in
// apps/api/src/env.ts). The source scan (tools/test/german.test.ts) sees the code; this sees what the
// build made of it, company details and all.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDist = path.resolve(repoRoot, process.env.WEB_DIST ?? 'apps/web/dist');

test('the built pages address the visitor as "Sie" and keep none of the spec\'s spelling mistakes', () => {
  const pages = listFiles(webDist, (name) => name.endsWith('.html')).filter((file) => !file.includes(`${path.sep}.ssr${path.sep}`));
  expect(pages.length, `prerendered pages in ${webDist} (run npm run build first)`).toBeGreaterThan(10);
  const findings = pages.flatMap((file) => textOfHtml(fs.readFileSync(file, 'utf8')).split('\n')
    .map((line) => line.trim()).filter(Boolean)
    .flatMap((line) => findInText(line, path.relative(webDist, file))));
  expect(findings).toEqual([]);
});
