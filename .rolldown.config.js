import { defineConfig } from 'rolldown';

/**
 * `npm run build`'s bundle of tsc's output (dist/src/bin.js and what it imports) into dist/app/, with rolldown's
 * defaults: a chunk for each set of modules that the lazy imports (`await import()`) reach, so that a command loads
 * only what it uses, in fewer files than tsc's one a module. canvas stays outside: its native addon is loaded from
 * node_modules. The source maps let a test name the modules a process loaded (test/cli/lazy-loading.test.ts).
 * dist/cli.js, the program's entry, runs dist/app/bin.js (.ci/build-id.js writes it, and the build's id).
 */
export default defineConfig({
  input: 'dist/src/bin.js',
  platform: 'node',
  external: ['canvas'],
  logLevel: 'warn',
  output: { dir: 'dist/app', format: 'esm', sourcemap: true, cleanDir: true },
});
