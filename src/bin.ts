import { mkdirSync, statSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Node's on-disk cache of compiled modules (Node 22.1+; Node 20 has none, and runs without): a one-shot command
 * such as `render` spends much of its life compiling our modules and their dependencies, the same every time.
 * The folder is the user's own (created 0700, owned by us and writable by nobody else, or the cache stays off), so
 * that no other user of a shared /tmp can plant compiled code in it. NODE_COMPILE_CACHE, when set, wins (Node reads
 * it at start), and NODE_DISABLE_COMPILE_CACHE turns it off. Not for `run`: the daemon starts once, and Node keeps
 * the cache it read for the life of the process (about 6 MB of an idle daemon on Node 22-26).
 */
function enableCompileCache(): void {
  const enable = (module as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
  if (typeof enable !== 'function' || process.env.NODE_COMPILE_CACHE !== undefined || process.argv[2] === 'run') return;
  const uid = process.getuid?.() ?? 0;
  const dir = path.join(tmpdir(), `outfit-display-compile-cache-${uid}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    if (!st.isDirectory() || (process.getuid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) return;
    enable(dir);
  } catch {
    // No writable temporary folder: the commands run as well, only compiling afresh.
  }
}

enableCompileCache();
// Imported after the cache is on (a static import would load, and compile, the whole CLI before this line runs).
const { main } = await import('./cli.js');

// The process entry point (dist/cli.js imports this): run the command, set the exit code, nothing else.
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`fatal: ${String(err)}\n`);
    process.exitCode = 1;
  },
);
