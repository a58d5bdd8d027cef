// Compresses the built text files once (brotli at its best level, gzip 9) next to the originals, so the
// server sends them as they are (@fastify/static preCompressed) instead of compressing every request.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const TEXT = /\.(?:js|mjs|css|svg|json|txt|xml|webmanifest|map)$/;
const MIN = 1024;
let files = 0;
let before = 0;
let after = 0;

function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      // Server-side bundle and build metadata are never served.
      if (entry.name.startsWith('.')) continue;
      walk(full);
    } else if (TEXT.test(entry.name) && !entry.name.endsWith('.map')) {
      const data = fs.readFileSync(full);
      if (data.length < MIN) continue;
      const br = zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
      const gz = zlib.gzipSync(data, { level: 9 });
      fs.writeFileSync(`${full}.br`, br);
      fs.writeFileSync(`${full}.gz`, gz);
      files += 1;
      before += data.length;
      after += br.length;
    }
  }
}

walk(dist);
process.stdout.write(`Vorkomprimiert: ${files} Dateien, ${(before / 1024).toFixed(0)} KB → ${(after / 1024).toFixed(0)} KB (Brotli)\n`);
