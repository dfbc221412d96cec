// The last step of `npm run build`, after tsc and the bundle (.ci/bundle.js, .rolldown.config.js): writes
// - dist/cli.js, the program's entry (package.json's `bin`, `node dist/cli.js`, the systemd unit's ExecStart): it
//   runs the bundle's entry, dist/app/bin.cjs;
// - dist/app/build-id: a hash of the bundle's files, names and contents. The disk caches of what the code computes
//   (src/render/glyph-disk-cache.ts) are read back only by the build that wrote them.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const app = path.join(dist, 'app');

writeFileSync(path.join(dist, 'cli.js'), "#!/usr/bin/env node\nimport './app/bin.cjs';\n", { mode: 0o755 });

const hash = createHash('sha256');
for (const name of readdirSync(app).filter((f) => f !== 'build-id').sort()) {
  hash.update(`${name}\0`).update(readFileSync(path.join(app, name)));
}
writeFileSync(path.join(app, 'build-id'), `${hash.digest('hex')}\n`);
