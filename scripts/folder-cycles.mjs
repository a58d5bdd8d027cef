// Folder-level import cycles between the API's modules (apps/api/src/modules/*) and the web's features
// (apps/web/src/features/*): a module may depend on another, or be depended on, but never both ways
// (docs/decisions/013, 033). dpdm (lint:cycles) finds file cycles; two folders can depend on each other
// through different files without any file cycle, which is what this check refuses.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const areas = [
  { dir: 'apps/api/src/modules', exts: ['.ts'] },
  { dir: 'apps/web/src/features', exts: ['.ts', '.tsx'] },
];
const importRe = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"](\.[^'"]+)['"]/g;

function files(dir, exts) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p, exts));
    else if (exts.some((x) => e.name.endsWith(x)) && !/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

let failed = false;
for (const { dir, exts } of areas) {
  const base = path.join(root, dir);
  const folderOf = (file) => {
    const rel = path.relative(base, file);
    return rel.startsWith('..') ? null : rel.split(path.sep)[0];
  };
  const edges = new Map();
  for (const file of files(base, exts)) {
    const from = folderOf(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(importRe)) {
      const to = folderOf(path.resolve(path.dirname(file), m[1]));
      if (!to || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const targets = edges.get(from);
      if (!targets.has(to)) targets.set(to, `${path.relative(root, file)} → ${m[1]}`);
    }
  }
  // Tarjan's strongly connected components.
  let index = 0;
  const idx = new Map(), low = new Map(), stack = [], on = new Set(), sccs = [];
  const visit = (v) => {
    idx.set(v, index); low.set(v, index); index++; stack.push(v); on.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do { w = stack.pop(); on.delete(w); scc.push(w); } while (w !== v);
      if (scc.length > 1) sccs.push(scc);
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) visit(v);
  for (const scc of sccs) {
    failed = true;
    console.error(`${dir}: folders depend on each other: ${scc.sort().join(', ')}`);
    for (const a of scc) for (const [b, why] of edges.get(a) ?? []) if (scc.includes(b)) console.error(`  ${a} → ${b}: ${why}`);
  }
}
if (failed) process.exit(1);
console.log('No folder cycles in apps/api/src/modules and apps/web/src/features.');
