// The second step of `npm run build`, after tsc: the bundle of .rolldown.config.js, made through rolldown's own
// build() rather than its command line, which lists every chunk and source map it writes (a hundred lines and more
// before the demo's first word). This says nothing when the bundle is made; rolldown's warnings (the config's
// logLevel) are printed as they come, and a failure is its errors on stderr with exit 1.
import { build } from 'rolldown';
import config from '../.rolldown.config.js';

try {
  await build(config);
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
