// Compiles the API once for `npm start` (docs/decisions/029): one ES module, apps/api/dist/server.js, dependencies left in node_modules, the workspace's own TypeScript packages (@hp/*)
// bundled in. The server then starts as plain JavaScript, without a TypeScript loader at run time.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const apiRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// API_BUILD_DIR: another folder beside src (the unit tests build their own copy, so a test run never
// replaces the dist/ that a running server or the journeys use); the data lookups below need that depth.
const outdir = process.env.API_BUILD_DIR ? path.resolve(process.env.API_BUILD_DIR) : path.join(apiRoot, 'dist');
if (path.dirname(outdir) !== apiRoot) throw new Error(`API_BUILD_DIR must be a folder directly in ${apiRoot}`);
const started = performance.now();

fs.rmSync(outdir, { recursive: true, force: true });

await build({
  entryPoints: { server: path.join(apiRoot, 'src/server.ts') },
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: 'linked',
  logLevel: 'warning',
  // Files that locate their data with import.meta.url sit at the same depth in dist as in src
  // (apps/api/src/x.ts, apps/api/dist/x.js); the data they read is copied below.
  plugins: [{
    name: 'dependencies-stay-external',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@hp/') ? undefined : { path: args.path, external: true }));
    },
  }],
});

// Data read at run time next to the code: the migrations (db/client.ts) and the Proxmox API schema the
// fake and the driver check requests against.
fs.cpSync(path.join(apiRoot, 'src/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });
const schema = path.join(apiRoot, 'src/drivers/hypervisor/proxmox/pve-api-schema.json');
if (fs.existsSync(schema)) fs.copyFileSync(schema, path.join(outdir, 'pve-api-schema.json'));

// zod's German messages (packages/contract/src/zod-locale.ts) are installed by a bare import, a side effect
// a bundler may drop: once esbuild did, and the built API answered every validation error in English while
// the tests, run from the sources, stayed German. The build fails instead.
if (!fs.readFileSync(path.join(outdir, 'server.js'), 'utf8').includes('alle Pflichtfelder aus.')) {
  throw new Error('apps/api/dist/server.js lacks the German zod messages (packages/contract/src/zod-locale.ts): check that apps/api/src/app.ts imports "@hp/contract/zod-locale"');
}

process.stdout.write(`API kompiliert nach ${path.relative(process.cwd(), outdir) || '.'} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
