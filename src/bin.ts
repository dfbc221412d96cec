import module from 'node:module';
import { privateCacheDir } from './shared/private-cache-dir.js';

/**
 * Node's on-disk cache of compiled modules (Node 22.1+; Node 20 has none, and runs without): a one-shot command
 * such as `render` spends much of its life compiling our modules and their dependencies, the same every time.
 * The folder is the user's own (shared/private-cache-dir.ts), or the cache stays off. NODE_COMPILE_CACHE, when
 * set, wins (Node reads it at start), and NODE_DISABLE_COMPILE_CACHE turns it off. Not for `run`: the daemon starts
 * once, and Node would keep the cache it read in memory for the life of the process.
 */
function enableCompileCache(): void {
  const enable = (module as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
  if (typeof enable !== 'function' || process.env.NODE_COMPILE_CACHE !== undefined || process.argv[2] === 'run') return;
  // No folder of the user's own: the commands run as well, only compiling afresh.
  const dir = privateCacheDir('compile-cache');
  if (dir !== null) enable(dir);
}

enableCompileCache();

// The process entry point (dist/cli.js runs this): run the command, set the exit code, nothing else. The CLI is
// imported after the cache is on (a static import would load, and compile, the whole CLI before that), and without
// a top-level await, which the CommonJS bundle (.rolldown.config.js) cannot hold.
import('./cli.js')
  .then(({ main }) => main(process.argv.slice(2)))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`fatal: ${String(err)}\n`);
      process.exitCode = 1;
    },
  );
